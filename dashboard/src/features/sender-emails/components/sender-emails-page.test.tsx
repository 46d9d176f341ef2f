import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, signedInSession } from '../../../test/utils';
import { SENDER_MESSAGES, type SenderEmail } from '../api/sender-emails';
import { SenderEmailsPage } from './sender-emails-page';

const api = vi.hoisted(() => ({
  listSenderEmails: vi.fn(),
  requestMailVerify: vi.fn(),
  checkMailVerified: vi.fn(),
  checkSpfDkim: vi.fn(),
  deleteMailVerified: vi.fn(),
}));

vi.mock('../api/sender-emails', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/sender-emails')>()),
  ...api,
}));

const row = (email: string, fields: Partial<SenderEmail> = {}): SenderEmail => ({
  id: email,
  email,
  status: 'verified',
  spf_verified: false,
  dkim_verified: false,
  dmarc_policy: null,
  checked_at: null,
  created_at: '2026-11-01T00:00:00Z',
  ...fields,
});

const render = () => renderWithProviders(<SenderEmailsPage />, { session: signedInSession() });

beforeEach(() => {
  for (const fn of Object.values(api)) fn.mockReset();
  api.checkSpfDkim.mockResolvedValue({
    spfVerified: true,
    dkimVerified: true,
    dmarcPolicy: null,
    sendsAs: 'own',
  });
});

describe('sender emails page', () => {
  it('checks every address that is not verified when the list loads, and only those', async () => {
    api.listSenderEmails.mockResolvedValue([
      row('done@example.com'),
      row('waiting@example.com', { status: 'pending' }),
      row('old@example.com', { status: 'not_verified' }),
    ]);
    api.checkMailVerified.mockImplementation(
      async (email: string) => email === 'waiting@example.com',
    );
    render();
    await waitFor(() => expect(api.checkMailVerified).toHaveBeenCalledTimes(2));
    expect(api.checkMailVerified.mock.calls.map((c) => c[0]).sort()).toEqual([
      'old@example.com',
      'waiting@example.com',
    ]);
    const waiting = screen.getByRole('row', { name: /waiting@example.com/ });
    await waitFor(() => expect(within(waiting).getByText('Verified')).toBeTruthy());
    const old = screen.getByRole('row', { name: /old@example.com/ });
    expect(within(old).getByText('Not verified')).toBeTruthy();
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
      api.requestMailVerify.mockRejectedValueOnce(new Error(SENDER_MESSAGES.tooMany));
      api.requestMailVerify.mockRejectedValueOnce(new Error(SENDER_MESSAGES.tooManyRequests));
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
        await screen.findByText('인증 요청이 너무 많습니다. 한 시간 뒤에 다시 시도해 주세요.'),
      ).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('adds an address, says the link was mailed, and shows the server message on failure', async () => {
    api.listSenderEmails
      .mockResolvedValueOnce([])
      .mockResolvedValue([row('me@example.com', { status: 'pending' })]);
    api.requestMailVerify.mockResolvedValueOnce({
      status: true,
      email: 'me@example.com',
      state: 'pending',
    });
    api.checkMailVerified.mockResolvedValue(false);
    render();
    await screen.findByText('No sender email yet.');
    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: ' Me@Example.com ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(api.requestMailVerify).toHaveBeenCalledWith('me@example.com'));
    expect(
      (await screen.findAllByText(/We mailed a verification link to me@example.com/)).length,
    ).toBeGreaterThan(0);
    expect(await screen.findByRole('row', { name: /me@example.com/ })).toBeTruthy();

    api.requestMailVerify.mockRejectedValueOnce(
      new Error('The mail service is not available; try again in a moment'),
    );
    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: 'other@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('The mail service is not available: try again in a moment.'),
    ).toBeTruthy();
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
