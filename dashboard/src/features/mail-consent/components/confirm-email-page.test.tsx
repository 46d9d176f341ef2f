import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import {
  alertsAfterClicks,
  fakeExports,
  functionError,
  opensInKorean,
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
    sender: 'news@bakery.example',
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
      screen.getByText(
        'Letters from the owner of the site where this address was given in a form. They would come from news@bakery.example.',
      ),
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
    asked({ scope: 'reply', sender: 'notify@reaction-blocks.local' });
    api.answerMailConsent.mockResolvedValue({ outcome: 'declined' });
    openLink(true);
    const notMe = await screen.findByRole('button', { name: '본인이 아닙니다' });
    expect(notMe.className).toContain('button-primary');
    await notMeDeclinesInKorean();
  });

  it('a notification address is asked by the owner’s sign-in address, no block name, in en and ko', async () => {
    asked({
      scope: 'notify',
      sender: 'notify@reaction-blocks.local',
      ownerEmail: 'owner@example.com',
    });
    const { unmount } = openLink();
    expect(
      await screen.findByText(
        'Notifications of new comments and responses on the blocks of the account owner@example.com. They would come from notify@reaction-blocks.local.',
      ),
    ).toBeTruthy();
    unmount();
    await opensInKorean(
      openLink,
      'owner@example.com 계정의 블록에 달린 새 댓글과 응답 알림입니다. notify@reaction-blocks.local 주소에서 발송됩니다.',
    );
  });

  it('a sender address mail’s “Not me” link can only decline: one button, in en and ko', async () => {
    asked({ scope: 'sender', sender: null, ownerEmail: 'owner@example.com' });
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

  it('names no owner-written words, only what the mail says and where the mails would come from, in en and ko', async () => {
    // rev-mail2 (2026-11-28): the page named the block and the owner's account name to whatever
    // address a visitor typed, so a block named as a bank's warning was shown on our domain. An
    // older server's answer still carrying them is not shown either.
    const ownersWords = 'Your bank account is locked, call 555-0100';
    const cases = [
      [
        'letters',
        'en',
        'news@bakery.example',
        'Letters from the owner of the site where this address was given in a form. They would come from news@bakery.example.',
      ],
      [
        'reply',
        'en',
        'notify@reaction-blocks.local',
        'Mails about replies to your comments on the site where this address was given. They would come from notify@reaction-blocks.local.',
      ],
      [
        'letters',
        'ko',
        'news@bakery.example',
        '이 주소를 양식에 적은 사이트의 운영자가 보내는 레터입니다. news@bakery.example 주소에서 발송됩니다.',
      ],
      [
        'reply',
        'ko',
        'notify@reaction-blocks.local',
        '이 주소를 남긴 사이트에서 쓴 댓글에 달린 답글 알림 메일입니다. notify@reaction-blocks.local 주소에서 발송됩니다.',
      ],
    ] as const;
    for (const [scope, lang, sender, text] of cases) {
      await i18next.changeLanguage(lang);
      asked({ scope, sender, ...{ blockName: ownersWords, ownerName: ownersWords } });
      const { unmount, container } = openLink();
      expect(await screen.findByText(text)).toBeTruthy();
      expect(container.textContent).not.toContain('bank account');
      unmount();
    }
  });

  it('a spent, expired or broken link says so, with no button to answer', async () => {
    api.readMailConsent.mockRejectedValue(new Error('Invalid link'));
    openLink();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Yes, confirm' })).toBeNull();
  });
});
