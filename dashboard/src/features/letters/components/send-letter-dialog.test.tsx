import { fireEvent, screen } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { fakeExports, renderWithProviders, signedInSession } from '../../../test/utils';
import * as lettersApi from '../api/letters';
import { registerLetterTranslations } from '../locales';
import { SendLetterDialog } from './send-letter-dialog';

vi.mock(import('../api/letters'), (original) =>
  fakeExports(original, ['remainingEmails', 'listSendGroups']),
);
const api = vi.mocked(lettersApi);

registerLetterTranslations();

const dialog = (paid = true) =>
  renderWithProviders(
    <SendLetterDialog blockId="b1" userId="user-1" paid={paid} onClose={() => {}} />,
    { session: signedInSession() },
  );

describe('send letter dialog', () => {
  it('says the 100 at a time and the month’s 1,098 left apart, in en and ko', async () => {
    api.remainingEmails.mockResolvedValue(1098);
    api.listSendGroups.mockResolvedValue([]);
    dialog();
    expect(
      await screen.findByText(/Up to 100 addresses at a time; 1,098 emails left this month\./),
    ).toBeTruthy();
    await i18next.changeLanguage('ko');
    expect(
      await screen.findByText(
        /한 번에 100개 주소까지 보낼 수 있습니다\. 이번 달에 1,098통 남았습니다\./,
      ),
    ).toBeTruthy();
  });

  it('writes the quota with one formatter on both tabs, in en and ko', async () => {
    api.remainingEmails.mockResolvedValue(8741);
    api.listSendGroups.mockResolvedValue([
      { name: 'activated', email_count: 2, skip_count: 0, awaiting_count: 0 },
    ]);
    dialog();
    expect(
      await screen.findByText(/Up to 100 addresses at a time; 8,741 emails left this month\./),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Audience' }));
    expect(await screen.findByText('You can send 8,741 more emails this month.')).toBeTruthy();
    await i18next.changeLanguage('ko');
    expect(await screen.findByText('이번 달에 8,741통 더 보낼 수 있습니다.')).toBeTruthy();
  });

  it('with fewer than 100 left it says how many', async () => {
    api.remainingEmails.mockResolvedValue(7);
    api.listSendGroups.mockResolvedValue([]);
    dialog();
    expect(await screen.findByText(/You can send 7 more emails this month\./)).toBeTruthy();
  });

  it('an audience send shows the server’s count (1,004, not a page of 1,000) and who it skips', async () => {
    api.remainingEmails.mockResolvedValue(5000);
    api.listSendGroups.mockResolvedValue([
      { name: 'activated', email_count: 1004, skip_count: 1, awaiting_count: 3 },
    ]);
    dialog();
    fireEvent.click(await screen.findByRole('tab', { name: 'Audience' }));
    expect(await screen.findByText('1,004 member(s) with an email')).toBeTruthy();
    expect(
      screen.getByText('1 of them unsubscribed or bounced before and will be skipped.'),
    ).toBeTruthy();
    // members whose typed address has not confirmed are not in the count, and the dialog says so
    expect(
      screen.getByText(
        'Not counted: 3 member(s) awaiting confirmation (a visitor typed the address and it has not confirmed yet).',
      ),
    ).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Send to the group' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('an audience send is held to the quota, counting only the addresses it reaches', async () => {
    api.remainingEmails.mockResolvedValue(999);
    api.listSendGroups.mockResolvedValue([
      { name: 'activated', email_count: 1004, skip_count: 4, awaiting_count: 0 },
      { name: 'friends', email_count: 1003, skip_count: 4, awaiting_count: 0 },
    ]);
    dialog();
    fireEvent.click(await screen.findByRole('tab', { name: 'Audience' }));
    await screen.findByText('1,004 member(s) with an email');
    const send = () =>
      screen.getByRole('button', { name: 'Send to the group' }) as HTMLButtonElement;
    // 1,000 addresses reached, 999 left
    expect(send().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'friends' } });
    await screen.findByText('1,003 member(s) with an email');
    expect(send().disabled).toBe(false);
  });
});
