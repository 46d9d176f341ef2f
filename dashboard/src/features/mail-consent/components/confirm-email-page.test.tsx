import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { fakeExports, renderWithProviders } from '../../../test/utils';
import * as mailConsentApi from '../api/mail-consent';
import { registerPublicPageTranslations } from '../../../locales/public-pages';
import { ConfirmEmailPage } from './confirm-email-page';

vi.mock(import('../api/mail-consent'), (original) =>
  fakeExports(original, ['readMailConsent', 'answerMailConsent']),
);
const api = vi.mocked(mailConsentApi);

registerPublicPageTranslations();
const token = 'A'.repeat(43);

describe('confirm-email page', () => {
  it('asks before it confirms (opening the link changes nothing), then says it is done', async () => {
    api.readMailConsent.mockResolvedValue({
      scope: 'letters',
      email: 'v***@example.com',
      blockName: 'Join the list',
      ownerName: 'Ann’s Bakery',
    });
    api.answerMailConsent.mockResolvedValue({ outcome: 'confirmed' });
    renderWithProviders(<ConfirmEmailPage />, { route: `/confirm-email?token=${token}` });
    expect(
      await screen.findByText('Did you ask for these mails at v***@example.com?'),
    ).toBeTruthy();
    expect(
      screen.getByText('Letters from Ann’s Bakery (asked in the form “Join the list”).'),
    ).toBeTruthy();
    expect(api.answerMailConsent).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, confirm' }));
    await waitFor(() => expect(api.answerMailConsent).toHaveBeenCalledWith(token, 'confirm'));
    expect(
      await screen.findByText('v***@example.com is confirmed. You can close this page.'),
    ).toBeTruthy();
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { level: 1, name: 'Confirmed' }),
    );
  });

  it('the mail’s “not me” link offers Not me first, in Korean too', async () => {
    await i18next.changeLanguage('ko');
    api.readMailConsent.mockResolvedValue({
      scope: 'reply',
      email: 'v***@example.com',
      blockName: 'Demo',
      ownerName: null,
    });
    api.answerMailConsent.mockResolvedValue({ outcome: 'declined' });
    renderWithProviders(<ConfirmEmailPage />, {
      route: `/confirm-email?token=${token}&answer=not-me`,
    });
    const notMe = await screen.findByRole('button', { name: '본인이 아닙니다' });
    expect(notMe.className).toContain('button-primary');
    fireEvent.click(notMe);
    await waitFor(() => expect(api.answerMailConsent).toHaveBeenCalledWith(token, 'not-me'));
    expect(
      await screen.findByText(
        'v***@example.com(으)로는 리액션 블록스가 더 이상 메일을 보내지 않아요.',
      ),
    ).toBeTruthy();
  });

  it('a spent, expired or broken link says so, with no button to answer', async () => {
    api.readMailConsent.mockRejectedValue(new Error('Invalid link'));
    renderWithProviders(<ConfirmEmailPage />, { route: `/confirm-email?token=${token}` });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Yes, confirm' })).toBeNull();
  });
});
