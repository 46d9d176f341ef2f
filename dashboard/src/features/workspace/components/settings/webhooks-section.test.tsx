import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../lib/webhooks';
import { renderWithProviders } from '../../../../test/utils';
import { WebhooksSection, type WebhooksApi } from './webhooks-section';

vi.mock('../../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const BLOCK = '00000000-0000-4000-8000-0000000000b1';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'e1',
  block_id: BLOCK,
  url: 'https://hooks.example.com/reaction',
  events: ['response.created', 'message.created'],
  description: '',
  enabled: true,
  secret_hint: 'whsec_MfKQ9r',
  created_at: '2026-11-01T00:00:00Z',
  ...over,
});

const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 'd1',
  endpoint_id: 'e1',
  event_type: 'message.created',
  status: 'delivered',
  attempts: 1,
  response_status: 200,
  last_error: null,
  created_at: '2026-11-02T03:04:00Z',
  last_attempt_at: '2026-11-02T03:04:01Z',
  ...over,
});

function fakeApi(endpoints: WebhookEndpoint[] = [], deliveries: WebhookDelivery[] = []) {
  let current = [...endpoints];
  return {
    load: vi.fn(async () => ({ endpoints: current, deliveries })),
    save: vi.fn(async (input: { id?: string; url: string; blockId: string | null }) => {
      const saved = endpoint({ id: input.id ?? 'e-new', url: input.url, block_id: input.blockId });
      current = input.id
        ? current.map((e) => (e.id === input.id ? saved : e))
        : [...current, saved];
      return input.id ? { endpoint: saved } : { endpoint: saved, secret: SECRET };
    }),
    rotate: vi.fn(async () => ({ secret: `${SECRET}x` })),
    test: vi.fn(
      async (): Promise<{ ok: boolean; status: number | null; error: string | null }> => ({
        ok: true,
        status: 204,
        error: null,
      }),
    ),
    remove: vi.fn(async (id: string) => {
      current = current.filter((e) => e.id !== id);
    }),
  } satisfies WebhooksApi;
}

const render = (api: WebhooksApi, paid = true) =>
  renderWithProviders(<WebhooksSection blockId={BLOCK} paid={paid} open api={api} />);

describe('Webhooks section', () => {
  it('adds an endpoint and shows its secret once, refusing an address that is not https', async () => {
    const api = fakeApi();
    render(api);
    expect(await screen.findByText('No endpoint gets this block’s events yet.')).toBeTruthy();
    const url = screen.getByLabelText('Endpoint URL');
    fireEvent.change(url, { target: { value: 'http://hooks.example.com/x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(
      await screen.findByText('Enter an https address of a server on the Internet'),
    ).toBeTruthy();
    expect(api.save).not.toHaveBeenCalled();
    fireEvent.change(url, { target: { value: 'https://hooks.example.com/x' } });
    // typing takes the refusal back
    expect(screen.queryByText('Enter an https address of a server on the Internet')).toBeNull();
    fireEvent.click(screen.getByLabelText('Unsubscribes'));
    fireEvent.change(screen.getByLabelText('Events of'), { target: { value: 'all' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() =>
      expect(api.save).toHaveBeenCalledWith({
        blockId: null,
        url: 'https://hooks.example.com/x',
        events: ['response.created', 'message.created'],
      }),
    );
    const secret = await screen.findByRole('group', { name: /Signing secret/ });
    expect(within(secret).getByText(SECRET)).toBeTruthy();
    expect(secret.textContent).toContain('it is not shown again');
    fireEvent.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('The endpoint was added.');
  });

  it('lists the endpoints with their log, sends a test, turns one off, rotates and deletes', async () => {
    const api = fakeApi(
      [endpoint(), endpoint({ id: 'e2', block_id: null, url: 'https://all.example.com/' })],
      [
        delivery(),
        delivery({
          id: 'd2',
          status: 'failed',
          attempts: 8,
          response_status: 500,
          last_error: 'answered 500',
        }),
        delivery({
          id: 'd3',
          status: 'pending',
          attempts: 2,
          response_status: null,
          last_error: 'timeout: no answer',
        }),
      ],
    );
    render(api);
    const list = await screen.findByRole('list', { name: 'Webhook endpoints' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain(
      'This block · New responses and likes, New comments, questions and replies · secret whsec_MfKQ9r…',
    );
    expect(second!.textContent).toContain('All your blocks');
    const log = within(first!).getByText('Delivery log (3 events)');
    fireEvent.click(log);
    const rows = within(first!).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelectorAll('td')[2]!.textContent)).toEqual([
      'Delivered',
      'Failed after 8 tries',
      'Waiting (2 tries)',
    ]);
    expect(rows[1]!.textContent).toContain('500 (answered 500)');

    fireEvent.click(within(first!).getByRole('button', { name: 'Send test' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The test was delivered (your server answered 204).',
      ),
    );
    fireEvent.click(within(first!).getByRole('switch', { name: 'Send events' }));
    await waitFor(() =>
      expect(api.save).toHaveBeenCalledWith(expect.objectContaining({ id: 'e1', enabled: false })),
    );
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Events are no longer sent to this endpoint.',
      ),
    );
    fireEvent.click(within(first!).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByText(`${SECRET}x`)).toBeTruthy();
    fireEvent.click(within(second!).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    expect(dialog.textContent).toContain('https://all.example.com/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.remove).toHaveBeenCalledWith('e2'));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
  });

  it('says what the server refused, in Korean too, and shows the paid hint to free owners', async () => {
    const api = fakeApi([endpoint()]);
    api.test.mockResolvedValueOnce({ ok: false, status: null, error: 'address: inside' });
    const { setLanguage } = await import('../../../../lib/i18n');
    await setLanguage('ko', false);
    try {
      render(api);
      const button = await screen.findByRole('button', { name: '테스트 보내기' });
      fireEvent.click(button);
      await waitFor(() =>
        expect(screen.getByRole('status').textContent).toBe(
          '테스트가 전달되지 않았습니다: address: inside',
        ),
      );
      api.save.mockRejectedValueOnce(new Error('This address does not lead to a public server'));
      fireEvent.change(screen.getByLabelText('엔드포인트 URL'), {
        target: { value: 'https://inside.example.com/' },
      });
      fireEvent.click(screen.getByRole('button', { name: '엔드포인트 추가' }));
      // under the field, which is marked invalid, takes the focus and reads the reason
      const field = screen.getByLabelText('엔드포인트 URL');
      await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
      const described = (field.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');
      expect(described).toContain('이 주소는 공개된 서버로 이어지지 않습니다');
      expect(document.activeElement).toBe(field);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      await setLanguage('en', false);
    }
  });

  it('free owners get the upgrade hint and nothing is read', async () => {
    const api = fakeApi();
    render(api, false);
    expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
    expect(api.load).not.toHaveBeenCalled();
  });
});
