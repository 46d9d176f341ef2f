import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeExports, renderWithProviders, signedInSession } from '../../../test/utils';
import * as senderEmailsApi from '../api/sender-emails';
import { SENDER_MESSAGES, type SenderEmail } from '../api/sender-emails';
import { SenderEmailsPage } from './sender-emails-page';

vi.mock(import('../api/sender-emails'), (original) =>
  fakeExports(original, [
    'listSenderEmails',
    'requestMailVerify',
    'checkMailVerified',
    'confirmMailVerify',
    'checkSpfDkim',
    'deleteMailVerified',
  ]),
);
const api = vi.mocked(senderEmailsApi);

const row = (email: string, fields: Partial<SenderEmail> = {}): SenderEmail => ({
  id: email,
  email,
  status: 'verified',
  spf_verified: false,
  dkim_verified: false,
  dmarc_policy: null,
  checked_at: null,
  confirmed_at: fields.status && fields.status !== 'verified' ? null : '2026-11-01T00:00:00Z',
  created_at: '2026-11-01T00:00:00Z',
  ...fields,
});

/** A function's refusal as invokeFunction throws it: the server's words, its status and code. */
const refusal = (message: string, status: number, code: string, fields: object = {}) =>
  Object.assign(new Error(message), { status, code, ...fields });

const render = (route = '/profile/email') =>
  renderWithProviders(<SenderEmailsPage />, { route, session: signedInSession() });
const checked = (verified: boolean, confirmed = verified) => ({ verified, confirmed });

beforeEach(() => {
  api.checkSpfDkim.mockResolvedValue({
    spfVerified: true,
    dkimVerified: true,
    dmarcPolicy: null,
    sendsAs: 'own',
  });
});

describe('sender emails page', () => {
  it('checks every address when the list loads: a verified one SES no longer sends as says so', async () => {
    api.listSenderEmails.mockResolvedValue([
      row('done@example.com', { checked_at: '2026-11-02T00:00:00Z' }),
      row('gone@example.com', { checked_at: '2026-11-02T00:00:00Z' }),
      row('waiting@example.com', { status: 'pending' }),
      row('old@example.com', { status: 'not_verified' }),
    ]);
    api.checkMailVerified.mockImplementation(async (email: string) =>
      email === 'gone@example.com'
        ? checked(false, true)
        : checked(email === 'waiting@example.com' || email === 'done@example.com'),
    );
    render();
    await waitFor(() => expect(api.checkMailVerified).toHaveBeenCalledTimes(4));
    const waiting = screen.getByRole('row', { name: /waiting@example.com/ });
    await waitFor(() => expect(within(waiting).getByText('Verified')).toBeTruthy());
    const old = screen.getByRole('row', { name: /old@example.com/ });
    expect(within(old).getByText('Waiting for your confirmation')).toBeTruthy();
    expect(
      within(old).getByText(
        'Open the link we mailed to old@example.com while signed in to this account.',
      ),
    ).toBeTruthy();
    const gone = screen.getByRole('row', { name: /gone@example.com/ });
    expect(within(gone).getByText('Waiting for Amazon SES')).toBeTruthy();
    expect(
      within(gone).getByRole('button', { name: 'Send the link again gone@example.com' }),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('row', { name: /done@example.com/ })).getByText('Verified'),
    ).toBeTruthy();
    // SPF and DKIM are read for what became verified or was never checked, not again each load
    expect(api.checkSpfDkim.mock.calls.map((c) => c[0]).sort()).toEqual([
      'old@example.com',
      'waiting@example.com',
    ]);
  });

  it('says what is missing: the owner confirmed, SES has not verified yet; sends the link again', async () => {
    api.listSenderEmails.mockResolvedValue([
      row('half@example.com', { status: 'not_verified', confirmed_at: '2026-11-02T00:00:00Z' }),
    ]);
    api.checkMailVerified.mockResolvedValue(checked(false, true));
    api.requestMailVerify.mockResolvedValue({
      status: true,
      email: 'half@example.com',
      state: 'awaiting_provider',
    });
    render();
    const line = await screen.findByRole('row', { name: /half@example.com/ });
    await waitFor(() => expect(within(line).getByText('Waiting for Amazon SES')).toBeTruthy());
    expect(
      within(line).getByText(/sent half@example.com a verification link of its own/),
    ).toBeTruthy();
    fireEvent.click(
      within(line).getByRole('button', { name: 'Send the link again half@example.com' }),
    );
    await waitFor(() => expect(api.requestMailVerify).toHaveBeenCalledWith('half@example.com'));
    expect(
      (await screen.findAllByText(/Amazon SES mailed a verification link to half@example.com/))
        .length,
    ).toBeGreaterThan(0);
  });

  it('opened from the mailed link: confirms once, drops the token from the address, reloads the list', async () => {
    const token = 'A'.repeat(43);
    api.listSenderEmails
      .mockResolvedValueOnce([row('me@example.com', { status: 'pending' })])
      .mockResolvedValue([row('me@example.com')]);
    api.checkMailVerified.mockResolvedValueOnce(checked(false)).mockResolvedValue(checked(true));
    api.confirmMailVerify.mockResolvedValue({
      status: true,
      email: 'me@example.com',
      state: 'verified',
    });
    render(`/profile/email?confirm=${token}&tab=x`);
    expect(await screen.findByText('me@example.com is verified.')).toBeTruthy();
    expect(api.confirmMailVerify).toHaveBeenCalledTimes(1);
    expect(api.confirmMailVerify).toHaveBeenCalledWith(token);
    expect(screen.getByTestId('location').textContent).toBe('/profile/email?tab=x');
    const line = await screen.findByRole('row', { name: /me@example.com/ });
    await waitFor(() => expect(within(line).getByText('Verified')).toBeTruthy());
  });

  it('refuses an invalid or too long address before calling the server, with the spec message', async () => {
    api.listSenderEmails.mockResolvedValue([]);
    render();
    await screen.findByText('No sender email yet.');
    const input = screen.getByLabelText('Email address');
    expect(input.getAttribute('maxlength')).toBe('60');
    fireEvent.change(input, { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid email address.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.requestMailVerify).not.toHaveBeenCalled();
  });

  it("says the server's refusals in Korean", async () => {
    await i18next.changeLanguage('ko');
    try {
      api.listSenderEmails.mockResolvedValue([]);
      api.requestMailVerify.mockRejectedValueOnce(
        refusal(SENDER_MESSAGES.tooMany, 400, 'too_many'),
      );
      // a 429 says how long to wait (invokeFunction puts the body's retryAfter on the error)
      api.requestMailVerify.mockRejectedValueOnce(
        refusal(SENDER_MESSAGES.tooManyRequests, 429, 'too_many_requests', { retryAfter: 2520 }),
      );
      render();
      const input = await screen.findByLabelText('이메일 주소');
      fireEvent.change(input, { target: { value: 'not-an-address' } });
      fireEvent.click(screen.getByRole('button', { name: '인증하기' }));
      expect(await screen.findByText('올바르지 않은 이메일 주소입니다.')).toBeTruthy();
      fireEvent.change(input, { target: { value: 'me@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: '인증하기' }));
      expect(await screen.findByText('발신 이메일은 10개까지 추가할 수 있습니다.')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: '인증하기' }));
      expect(
        await screen.findByText('인증 요청이 너무 많습니다. 42분 후 다시 시도해 주세요.'),
      ).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  /** An empty list, then `typed` added through the form (the page's words in `labels`). */
  const addFirst = async (
    typed: string,
    labels: { empty: string; field: string; verify: string },
  ) => {
    const email = typed.trim().toLowerCase();
    api.listSenderEmails
      .mockResolvedValueOnce([])
      .mockResolvedValue([row(email, { status: 'pending' })]);
    api.requestMailVerify.mockResolvedValueOnce({ status: true, email, state: 'pending' });
    api.checkMailVerified.mockResolvedValue(checked(false));
    render();
    await screen.findByText(labels.empty);
    fireEvent.change(screen.getByLabelText(labels.field), { target: { value: typed } });
    fireEvent.click(screen.getByRole('button', { name: labels.verify }));
  };

  it('adds an address, says the link was mailed, and shows the server message on failure', async () => {
    await addFirst(' Me@Example.com ', {
      empty: 'No sender email yet.',
      field: 'Email address',
      verify: 'Verify',
    });
    await waitFor(() => expect(api.requestMailVerify).toHaveBeenCalledWith('me@example.com'));
    expect(
      (await screen.findAllByText(/We mailed a link to me@example.com. Open it while signed in/))
        .length,
    ).toBeGreaterThan(0);
    expect(await screen.findByRole('row', { name: /me@example.com/ })).toBeTruthy();

    api.requestMailVerify.mockRejectedValueOnce(
      refusal(SENDER_MESSAGES.unavailable, 503, 'provider_unavailable'),
    );
    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: 'other@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('The mail service is not available: try again in a moment.'),
    ).toBeTruthy();
  });

  it('says in Korean where the link went with (으)로, which reads after any address', async () => {
    await i18next.changeLanguage('ko');
    try {
      await addFirst('sender@example.com', {
        empty: '아직 발신 이메일이 없습니다.',
        field: '이메일 주소',
        verify: '인증하기',
      });
      expect(
        (await screen.findAllByText(/^sender@example.com\(으\)로 링크를 보냈습니다\./)).length,
      ).toBeGreaterThan(0);
      expect(screen.queryByText(/example.com로 /)).toBeNull();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('explains the platform sender for a DMARC reject domain without DKIM', async () => {
    api.listSenderEmails.mockResolvedValue([
      row('me@strict.example', {
        dmarc_policy: 'reject',
        spf_verified: true,
        checked_at: '2026-11-02T00:00:00Z',
      }),
    ]);
    render();
    expect(
      await screen.findByText(/strict.example asks receivers to reject or quarantine/),
    ).toBeTruthy();
    const line = screen.getByRole('row', { name: /me@strict.example/ });
    expect(within(line).getByText('Yes')).toBeTruthy();
    expect(within(line).getByText('No')).toBeTruthy();
  });

  it("never shows the server's or Amazon SES's English: each code in the reader's language", async () => {
    api.listSenderEmails.mockResolvedValue([row('me@example.com')]);
    api.checkMailVerified.mockResolvedValue(checked(true));
    // SES's own words for an address it refuses, and a row deleted in another window
    api.requestMailVerify.mockRejectedValueOnce(
      refusal('Illegal address', 400, 'provider_rejected'),
    );
    api.deleteMailVerified.mockRejectedValueOnce(refusal('No such sender email', 404, 'not_found'));
    render();
    fireEvent.change(await screen.findByLabelText('Email address'), {
      target: { value: 'new@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText(
        'Amazon SES, which delivers our mail, refused this address. Check it, or try another one.',
      ),
    ).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete me@example.com' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText(
        'Could not do that: This address is not in your list any more: reload the page.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/Illegal address|No such sender email/)).toBeNull();
  });

  it.each([
    [
      'en',
      {
        field: 'Email address',
        verify: 'Verify',
        again: 'Send the link again wait@example.com',
        suppressed:
          'This address asked not to get mail from Reaction Blocks, or could not receive it, so no link can be sent to it.',
        sentToday:
          'Could not do that: A confirmation link went to this address less than a day ago. Try again in 5 hours.',
      },
    ],
    [
      'ko',
      {
        field: '이메일 주소',
        verify: '인증하기',
        again: '링크 다시 보내기 wait@example.com',
        suppressed:
          '이 주소는 리액션 블록스의 메일을 받지 않겠다고 했거나 메일을 받을 수 없어, 링크를 보낼 수 없습니다.',
        sentToday:
          '처리하지 못했습니다: 하루 안에 이 주소로 확인 링크를 이미 보냈습니다. 5시간 후 다시 시도해 주세요.',
      },
    ],
  ])(
    'says (%s) that an address refused our mail, and when a link can go again after one today',
    async (language, texts) => {
      await i18next.changeLanguage(language);
      try {
        api.listSenderEmails.mockResolvedValue([row('wait@example.com', { status: 'pending' })]);
        api.checkMailVerified.mockResolvedValue(checked(false));
        api.requestMailVerify
          .mockRejectedValueOnce(refusal(SENDER_MESSAGES.suppressed, 400, 'suppressed'))
          .mockRejectedValueOnce(
            refusal(SENDER_MESSAGES.sentToday, 429, 'sent_today', { retryAfter: 5 * 3600 }),
          );
        render();
        fireEvent.change(await screen.findByLabelText(texts.field), {
          target: { value: 'said-no@example.com' },
        });
        fireEvent.click(screen.getByRole('button', { name: texts.verify }));
        expect(await screen.findByText(texts.suppressed)).toBeTruthy();
        fireEvent.click(await screen.findByRole('button', { name: texts.again }));
        expect(await screen.findByText(texts.sentToday)).toBeTruthy();
      } finally {
        await i18next.changeLanguage('en');
      }
    },
  );

  it("says in Korean that a link is another account's or spent, and a link cut short without a request", async () => {
    await i18next.changeLanguage('ko');
    const spentText =
      '주소를 확인하지 못했습니다: 더 이상 쓸 수 없는 확인 링크입니다(24시간 안에 한 번만 쓸 수 있습니다). 링크를 다시 보내 주세요.';
    try {
      api.listSenderEmails.mockResolvedValue([]);
      api.confirmMailVerify
        .mockRejectedValueOnce(refusal(SENDER_MESSAGES.otherAccount, 403, 'other_account'))
        .mockRejectedValueOnce(refusal(SENDER_MESSAGES.invalidLink, 400, 'invalid_link'));
      const other = render(`/profile/email?confirm=${'B'.repeat(43)}`);
      expect(
        await screen.findByText(
          '주소를 확인하지 못했습니다: 다른 계정의 확인 링크입니다. 이 주소를 추가한 계정으로 로그인해 주세요.',
        ),
      ).toBeTruthy();
      other.unmount();
      const spent = render(`/profile/email?confirm=${'C'.repeat(43)}`);
      expect(await screen.findByText(spentText)).toBeTruthy();
      spent.unmount();
      render(`/profile/email?confirm=${'D'.repeat(20)}`);
      expect(await screen.findByText(spentText)).toBeTruthy();
      expect(api.confirmMailVerify).toHaveBeenCalledTimes(2);
      expect(screen.queryByText(/origin|invalid_format|regex/)).toBeNull();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('deletes after confirmation', async () => {
    api.listSenderEmails.mockResolvedValue([row('bye@example.com')]);
    api.deleteMailVerified.mockResolvedValue({ status: true });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete bye@example.com' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deleteMailVerified).toHaveBeenCalledWith('bye@example.com'));
    await waitFor(() => expect(screen.queryByRole('row', { name: /bye@example.com/ })).toBeNull());
  });
});
