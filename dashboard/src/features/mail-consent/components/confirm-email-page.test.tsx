import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import {
  alertsAfterClicks,
  fakeExports,
  functionError,
  renderWithProviders,
} from '../../../test/utils';
import * as mailConsentApi from '../api/mail-consent';
import type { MailConsentInfo } from '../api/mail-consent';
import { registerPublicPageTranslations } from '../../../locales/public-pages';
import { ConfirmEmailPage } from './confirm-email-page';

vi.mock(import('../api/mail-consent'), (original) =>
  fakeExports(original, ['readMailConsent', 'answerMailConsent']),
);
const api = vi.mocked(mailConsentApi);

registerPublicPageTranslations();
const token = 'A'.repeat(43);

/** The link's request, as the function reads it: `over` on a letters request for v***@example.com. */
const asked = (over: Partial<MailConsentInfo> = {}) =>
  api.readMailConsent.mockResolvedValue({
    scope: 'letters',
    email: 'v***@example.com',
    blockName: 'Join the list',
    ownerName: 'Ann’s Bakery',
    ...over,
  });
/** The page opened from the mail's link (`&answer=not-me` for its "Not me" link). */
const openLink = (notMe = false) =>
  renderWithProviders(<ConfirmEmailPage />, {
    route: `/confirm-email?token=${token}${notMe ? '&answer=not-me' : ''}`,
  });
/** Not me, in Korean: the answer is sent, and the page says no more mail goes to the address. */
async function notMeDeclinesInKorean() {
  fireEvent.click(screen.getByRole('button', { name: '본인이 아닙니다' }));
  await waitFor(() => expect(api.answerMailConsent).toHaveBeenCalledWith(token, 'not-me'));
  expect(
    await screen.findByText(
      'v***@example.com(으)로는 리액션 블록스가 더 이상 메일을 보내지 않아요.',
    ),
  ).toBeTruthy();
}

describe('confirm-email page', () => {
  it('asks before it confirms (opening the link changes nothing), then says it is done', async () => {
    asked();
    api.answerMailConsent.mockResolvedValue({ outcome: 'confirmed' });
    openLink();
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

  it("says why an answer was not saved in the reader's language, not the server's words", async () => {
    asked();
    // the function's 503 as callLinkFunction throws it, then a link spent meanwhile
    api.answerMailConsent
      .mockRejectedValueOnce(
        functionError(503, 'unavailable', 'The service is briefly unavailable'),
      )
      .mockRejectedValueOnce(functionError(400, 'invalid_link', 'Invalid link'));
    await i18next.changeLanguage('ko');
    openLink();
    await screen.findByRole('button', { name: '네, 확인합니다' });
    await alertsAfterClicks([
      ['ko', '네, 확인합니다', '답을 저장하지 못했어요: 서비스가 잠시 응답하지 않습니다.'],
      [
        'ko',
        '네, 확인합니다',
        '답을 저장하지 못했어요: 이미 사용했거나 만료되었거나 온전하지 않은 링크예요. 바뀐 것은 없어요.',
      ],
    ]);
  });

  it('the mail’s “not me” link offers Not me first, in Korean too', async () => {
    await i18next.changeLanguage('ko');
    asked({ scope: 'reply', blockName: 'Demo', ownerName: null });
    api.answerMailConsent.mockResolvedValue({ outcome: 'declined' });
    openLink(true);
    const notMe = await screen.findByRole('button', { name: '본인이 아닙니다' });
    expect(notMe.className).toContain('button-primary');
    await notMeDeclinesInKorean();
  });

  it('a notification address is asked by the owner’s sign-in address, no block name, in en and ko', async () => {
    asked({ scope: 'notify', blockName: null, ownerName: null, ownerEmail: 'owner@example.com' });
    const { unmount } = openLink();
    expect(
      await screen.findByText(
        'Notifications of new comments and responses on the blocks of the account owner@example.com.',
      ),
    ).toBeTruthy();
    unmount();
    await i18next.changeLanguage('ko');
    openLink();
    expect(
      await screen.findByText('owner@example.com 계정의 블록에 달린 새 댓글과 응답 알림입니다.'),
    ).toBeTruthy();
  });

  it('a sender address mail’s “Not me” link can only decline: one button, in en and ko', async () => {
    asked({ scope: 'sender', blockName: null, ownerName: null, ownerEmail: 'owner@example.com' });
    api.answerMailConsent.mockResolvedValue({ outcome: 'declined' });
    const { unmount } = openLink(true);
    expect(
      await screen.findByText('Did you ask to send letters from v***@example.com?'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'The account owner@example.com asked to send letters from this address. If that is not you, answer “Not me”: nothing is sent from it, and Reaction Blocks sends it no more mail.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('A sender address request');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Not me']);
    unmount();

    await i18next.changeLanguage('ko');
    openLink(true);
    expect(
      await screen.findByText(
        'owner@example.com 계정이 이 주소로 레터를 보내려고 합니다. 본인이 아니라면 “본인이 아닙니다”를 눌러 주세요. 이 주소로는 아무것도 발송되지 않고, 리액션 블록스도 더 이상 메일을 보내지 않아요.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('v***@example.com 주소로 레터를 보내려고 하셨나요?')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: '발신 주소 요청' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '네, 확인합니다' })).toBeNull();
    await notMeDeclinesInKorean();
  });

  it('a spent, expired or broken link says so, with no button to answer', async () => {
    api.readMailConsent.mockRejectedValue(new Error('Invalid link'));
    openLink();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Yes, confirm' })).toBeNull();
  });
});
