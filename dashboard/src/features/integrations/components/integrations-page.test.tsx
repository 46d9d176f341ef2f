import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { IntegrationNote, NotionIntegration } from '../../../lib/integrations';
import { fakeProfile, renderWithProviders, signedInSession } from '../../../test/utils';
import { IntegrationsPage, type IntegrationsApi } from './integrations-page';

vi.mock('../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const notion = (over: Partial<NotionIntegration> = {}): NotionIntegration => ({
  id: 'i1',
  status: 'granted',
  workspace_name: 'Acme',
  status_reason: null,
  created_at: '2026-11-01T03:00:00Z',
  updated_at: '2026-11-01T03:00:00Z',
  ...over,
});

function api(
  state: { notion: NotionIntegration | null; notes?: IntegrationNote[] },
  over: Partial<IntegrationsApi> = {},
) {
  let current = { notion: state.notion, notes: state.notes ?? [] };
  return {
    load: vi.fn(async () => current),
    connect: vi.fn(async () => {
      current = { notion: notion(), notes: [] };
      return { status: 'connected' as const, workspaceName: 'Acme' };
    }),
    remove: vi.fn(async () => {
      current = { notion: null, notes: [] };
      return { revoked: true, unlinked: 2 };
    }),
    dismiss: vi.fn(async () => {}),
    ...over,
  } satisfies IntegrationsApi;
}

const render = (a: IntegrationsApi, paid = true) =>
  renderWithProviders(<IntegrationsPage api={a} />, {
    route: '/profile/integration',
    session: signedInSession({ profile: fakeProfile({ paid }) }),
  });

describe('/profile/integration', () => {
  it('shows Notion not granted and connects through the popup', async () => {
    const a = api({ notion: null });
    render(a);
    expect(await screen.findByRole('heading', { level: 1, name: 'Integration' })).toBeTruthy();
    const card = (await screen.findByRole('heading', { name: 'Notion' })).closest('li')!;
    expect(card.textContent).toContain('Not granted');
    fireEvent.click(within(card).getByRole('button', { name: 'Connect Notion' }));
    expect(a.connect).toHaveBeenCalledWith(
      'The Notion window could not open. Allow pop-ups for this site and try again.',
    );
    await waitFor(() =>
      expect(document.querySelector('.notice')?.textContent).toBe('Notion is connected (Acme).'),
    );
    expect(screen.getByRole('status').textContent).toBe('Notion is connected (Acme).');
    await waitFor(() => expect(card.textContent).toContain('Granted'));
    expect(card.textContent).toContain('Workspace: Acme · Connected on 26.11.01');
  });

  it('removes after confirmation and says how many blocks were unlinked', async () => {
    const a = api({ notion: notion() });
    render(a);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the Notion integration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Notion was removed. 2 blocks were unlinked.',
      ),
    );
    expect(a.remove).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Connect Notion' })).toBeTruthy(),
    );
  });

  it('not granted: explains, offers to connect again, and dismisses notes', async () => {
    const a = api({
      notion: notion({ status: 'not_granted' }),
      notes: [
        {
          id: 'n1',
          block_id: null,
          code: 'write_failed',
          property: '',
          detail: { message: 'boom' },
          count: 2,
          last_at: '2026-11-02T05:06:00Z',
        },
      ],
    });
    render(a);
    expect(await screen.findByText(/Notion refused our access/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect Notion again' })).toBeTruthy();
    const notes = screen.getByRole('list', { name: 'Notes' });
    expect(notes.textContent).toContain('could not be written to Notion after every retry: boom');
    expect(notes.textContent).toMatch(/2 times, last 26\.11\.02 \d\d:06/);
    fireEvent.click(within(notes).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Notes' })).toBeNull());
    expect(a.dismiss).toHaveBeenCalledWith('n1');
  });

  it('free owners see the paid hint instead of a working button', async () => {
    render(api({ notion: null }), false);
    const button = await screen.findByRole('button', { name: 'Connect Notion' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('integration-paid');
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      '/profile/plan',
    );
  });

  it('reads in Korean', async () => {
    const { setLanguage } = await import('../../../lib/i18n');
    await setLanguage('ko', false);
    render(api({ notion: notion({ status: 'not_granted' }) }));
    expect(await screen.findByRole('heading', { level: 1, name: '연동' })).toBeTruthy();
    expect(await screen.findByText('허용 안 됨')).toBeTruthy();
    expect(screen.getByRole('button', { name: '노션 다시 연결' })).toBeTruthy();
  });
});
