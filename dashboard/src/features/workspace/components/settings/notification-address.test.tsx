import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/utils';
import {
  NotificationAddress,
  type NotificationAddressApi,
  type NotificationAddressStatus,
} from './notification-address';

vi.mock('../../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const BLOCK = '00000000-0000-4000-8000-0000000000b1';

function fakeApi(status: NotificationAddressStatus, sent = true) {
  return {
    status: vi.fn(async () => status),
    resend: vi.fn(async () => ({ sent })),
  } satisfies NotificationAddressApi;
}

const waiting = (email = 'team@example.com'): NotificationAddressStatus => ({
  email,
  state: 'waiting',
  mailed_at: '2026-11-27T20:00:00Z',
});

/** The section's note for the draft's address `mailTo`. */
const show = (api: NotificationAddressApi, mailTo: string) =>
  renderWithProviders(<NotificationAddress blockId={BLOCK} mailTo={mailTo} api={api} />);

afterEach(async () => {
  await act(() => i18next.changeLanguage('en'));
});

describe('the Notification section’s address', () => {
  it('waiting: says a link went and notifications start once it is confirmed, and sends it again once', async () => {
    const api = fakeApi(waiting());
    show(api, 'Team@example.com');
    expect(
      await screen.findByText(
        'We sent a link to team@example.com; notifications start once it is confirmed.',
      ),
    ).toBeTruthy();
    const again = screen.getByRole('button', { name: 'Send the link again' });
    fireEvent.click(again);
    await waitFor(() => expect(api.resend).toHaveBeenCalledWith(BLOCK));
    expect(await screen.findByText('The link is on its way again.')).toBeTruthy();
    expect((again as HTMLButtonElement).disabled).toBe(true);
  });

  it('waiting, and the server sent nothing (asked today, or an address that refused mail): says so, not why', async () => {
    const api = fakeApi(waiting(), false);
    show(api, 'team@example.com');
    fireEvent.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(
      await screen.findByText(
        'No link was sent this time. A link goes at most once a day; if none arrives, check the address.',
      ),
    ).toBeTruthy();
  });

  it('in Korean', async () => {
    await act(() => i18next.changeLanguage('ko'));
    const api = fakeApi(waiting(), false);
    show(api, 'team@example.com');
    expect(
      await screen.findByText(
        'team@example.com(으)로 확인 링크를 보냈습니다. 확인되면 알림이 시작됩니다.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '링크 다시 보내기' }));
    expect(
      await screen.findByText(
        '이번에는 링크를 보내지 않았습니다. 링크는 하루에 한 번까지만 보냅니다. 링크가 오지 않으면 주소를 확인해 주세요.',
      ),
    ).toBeTruthy();
  });

  it('the owner’s own (or a confirmed) address: no notice, nothing to send', async () => {
    const api = fakeApi({ email: 'me@example.com', state: 'allowed' });
    const { container } = show(api, 'me@example.com');
    await waitFor(() => expect(api.status).toHaveBeenCalledWith(BLOCK, expect.any(AbortSignal)));
    await act(async () => {});
    expect(container.querySelector('.notice')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('an address being edited (not the saved one) shows nothing yet', async () => {
    const api = fakeApi(waiting('old@example.com'));
    const { container } = show(api, 'new@example.com');
    await waitFor(() => expect(api.status).toHaveBeenCalled());
    await act(async () => {});
    expect(container.querySelector('.notice')).toBeNull();
  });
});
