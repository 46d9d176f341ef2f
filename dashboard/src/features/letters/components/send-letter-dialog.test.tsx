import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import {
  fakeExports,
  functionError,
  renderWithProviders,
  signedInSession,
} from '../../../test/utils';
import * as lettersApi from '../api/letters';
import { registerLetterTranslations } from '../locales';
import { SendLetterDialog } from './send-letter-dialog';

vi.mock(import('../api/letters'), (original) =>
  fakeExports(original, ['remainingEmails', 'listSendGroups', 'sendLetter', 'publishLetter']),
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
    expect(await screen.findByText('1,004 members with an email')).toBeTruthy();
    expect(
      screen.getByText('1 of them unsubscribed or bounced before and will be skipped.'),
    ).toBeTruthy();
    // members whose typed address has not confirmed are not in the count, and the dialog says so
    expect(
      screen.getByText(
        'Not counted: 3 members awaiting confirmation (a visitor typed the address and it has not confirmed yet).',
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
    await screen.findByText('1,004 members with an email');
    const send = () =>
      screen.getByRole('button', { name: 'Send to the group' }) as HTMLButtonElement;
    // 1,000 addresses reached, 999 left: held, and said why (before: greyed with no word)
    expect(send().disabled).toBe(true);
    const why = screen.getByRole('alert');
    expect(why.textContent).toBe('Not enough sending email counts See plans');
    expect(send().getAttribute('aria-describedby')).toBe(why.id);
    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'friends' } });
    await screen.findByText('1,003 members with an email');
    expect(send().disabled).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(send().hasAttribute('aria-describedby')).toBe(false);
  });

  it("a group deleted meanwhile is said in the reader's language, and the groups are read again (rev-uncov3 D8)", async () => {
    api.remainingEmails.mockResolvedValue(999);
    api.listSendGroups.mockResolvedValue([
      { name: 'temp', email_count: 1, skip_count: 0, awaiting_count: 0 },
    ]);
    api.publishLetter.mockRejectedValue(functionError(400, 'invalid_input', 'No such group'));
    dialog();
    fireEvent.click(await screen.findByRole('tab', { name: 'Audience' }));
    fireEvent.change(await screen.findByLabelText('Group'), { target: { value: 'temp' } });
    await screen.findByText('1 member with an email');
    const reads = api.listSendGroups.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Send to the group' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This group no longer exists: pick another.',
    );
    await waitFor(() => expect(api.listSendGroups.mock.calls.length).toBeGreaterThan(reads));
    await i18next.changeLanguage('ko');
    fireEvent.click(screen.getByRole('button', { name: '그룹에 보내기' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        '이 그룹은 더 이상 없습니다. 다른 그룹을 고르세요.',
      ),
    );
    await i18next.changeLanguage('en');
  });

  describe('the addresses box (U12)', () => {
    const box = () => screen.getByLabelText('Email addresses') as HTMLTextAreaElement;
    const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const paste = (text: string) => {
      fireEvent.paste(box());
      fireEvent.change(box(), { target: { value: text } });
    };
    const open = async () => {
      api.remainingEmails.mockResolvedValue(500);
      api.listSendGroups.mockResolvedValue([]);
      dialog();
      await screen.findByText(/Up to 100 addresses at a time/);
    };

    it('takes ";" and "Name <address>", counts a repeat once and says so', async () => {
      await open();
      paste('Ann <ann@example.com>; bob@example.com\nANN@example.com');
      expect(
        await screen.findByText(
          'Send to 2 addresses: ann@example.com, bob@example.com 1 repeated address is counted once.',
        ),
      ).toBeTruthy();
      expect(send().disabled).toBe(false);
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it('counts in words that agree with the number: 1 address, 1 email (not "email(s)")', async () => {
      await open();
      paste('ann@example.com');
      expect(await screen.findByText('Send to 1 address: ann@example.com')).toBeTruthy();
      api.sendLetter.mockResolvedValue({ reservedCount: 1, skippedCount: 1 } as never);
      fireEvent.click(send());
      expect(
        await screen.findByText('Reserved 1 email. It goes out in the next minutes.'),
      ).toBeTruthy();
      expect(screen.getByText('1 address skipped: unsubscribed or bounced before.')).toBeTruthy();
    });

    it('reads a copied page and a Korean input method: invisible marks, full-width ＠＜＞, a handle as a name (rev-break2 R3, R4, R6)', async () => {
      await open();
      // LRM and RLM around an address (Gmail, Naver), a soft hyphen and a ZWJ inside ones, the
      // full-width mode's ＜＠＞, a name that is not an address but has an "@" (a handle)
      paste(
        '\u200eann@example.com\u200f, bob@exa\u00adm\u200dple.com; 김철수 ＜kim＠example.com＞\n' +
          'Ann <e@example.com> @lee <f@example.com>',
      );
      expect(
        await screen.findByText(
          'Send to 5 addresses: ann@example.com, bob@example.com, kim@example.com, e@example.com, f@example.com',
        ),
      ).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(send().disabled).toBe(false);
    });

    it('a word joined to an address by a hidden mark, or an "@" word before a bracket, is named with the mark shown (breaker F1, F3, F9)', async () => {
      await open();
      paste(
        'Bob\u200bbob@example.com, kim@example.com. <c@example.com>\n' +
          'firstname.lastname.team.lead@company.co\u200bm',
      );
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(
        '3 entries are not email addresses: “Bob␣bob@example.com”, “kim@example.com.”, “…rstname.lastname.team.lead@company.co␣m”',
      );
      expect(send().disabled).toBe(true);
    });

    it('a stray "<" is named alone and takes none of the addresses after it (rev-break2 R5)', async () => {
      await open();
      paste('x < a@example.com b@example.com, <3 c@example.com d@example.com');
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('2 entries are not email addresses: “x <”, “<3”');
      expect(send().disabled).toBe(true);
    });

    it('a paste names its bad entries (the first 3 and a count), as an alert, in en and ko; no HTML from it', async () => {
      await open();
      paste('a@x.com Carl Jones, x@, <b>Ann</b> <c@x.com>; <img src=x onerror=alert(1)>, ok@x.com');
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(
        // the <img ...> tag is one entry: an open bracket holds its words up to its `>`
        '4 entries are not email addresses: “Carl Jones”, “x@”, “<b>Ann</b>” and 1 more',
      );
      expect(alert.querySelector('b, img')).toBeNull();
      expect(box().getAttribute('aria-invalid')).toBe('true');
      expect(send().disabled).toBe(true);
      await i18next.changeLanguage('ko');
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe(
          '이메일 주소가 아닌 항목 4개: “Carl Jones”, “x@”, “<b>Ann</b>” 외 1개',
        ),
      );
      await i18next.changeLanguage('en');
    });

    it('a half-typed address is not called bad; Send names it and puts the focus back in the box', async () => {
      await open();
      fireEvent.change(box(), { target: { value: 'ann@example.com, bob@' } });
      expect(screen.queryByRole('alert')).toBeNull();
      fireEvent.click(send());
      expect((await screen.findByRole('alert')).textContent).toBe('Not an email address: “bob@”');
      expect(document.activeElement).toBe(box());
      expect(api.sendLetter).not.toHaveBeenCalled();
    });

    it('typing after a paste is half typing again: no alert at each key, named again on leaving the box', async () => {
      await open();
      paste('ann@example.com, x@');
      expect((await screen.findByRole('alert')).textContent).toBe('Not an email address: “x@”');
      fireEvent.change(box(), { target: { value: 'ann@example.com, bo' } });
      expect(screen.queryByRole('alert')).toBeNull();
      fireEvent.change(box(), { target: { value: 'ann@example.com, bob@' } });
      expect(screen.queryByRole('alert')).toBeNull();
      fireEvent.blur(box());
      expect((await screen.findByRole('alert')).textContent).toBe('Not an email address: “bob@”');
    });

    it('a refused send says the server’s reason in the reader’s language and puts the focus back in the box', async () => {
      await open();
      api.sendLetter.mockRejectedValue(
        functionError(400, 'invalid_input', 'Not enough sending email counts (emailList)'),
      );
      fireEvent.change(box(), { target: { value: 'ann@example.com' } });
      fireEvent.click(send());
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Not enough sending email counts',
      );
      await waitFor(() => expect(document.activeElement).toBe(box()));
    });

    it('a 10,000-address paste is refused as too many entries, 101 addresses as too many at once; a 1 MB word is named cut short', async () => {
      await open();
      paste(Array.from({ length: 10_000 }, (_, i) => `u${i}@x.com`).join('\n'));
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Paste at most 1,000 entries at once (100 different addresses)',
      );
      paste(Array.from({ length: 101 }, (_, i) => `u${i}@x.com`).join('\n'));
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe(
          'You can send 100 emails at once by manual sending',
        ),
      );
      // 1,001 copies of one address are too many entries, not too many addresses
      paste(Array(1001).fill('ann@x.com').join(','));
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe(
          'Paste at most 1,000 entries at once (100 different addresses)',
        ),
      );
      await i18next.changeLanguage('ko');
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe(
          '한 번에 1,000개 항목까지 붙여 넣을 수 있습니다 (서로 다른 주소 100개까지)',
        ),
      );
      await i18next.changeLanguage('en');
      paste('x'.repeat(1 << 20));
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe(
          `Not an email address: “${'x'.repeat(39)}…”`,
        ),
      );
    });
  });
});
