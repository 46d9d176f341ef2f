import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import {
  alertsAfterClicks,
  fakeExports,
  functionError,
  renderWithProviders,
} from '../../../test/utils';
import * as unsubscribeApi from '../api/unsubscribe';
import { UnsubscribePage } from './unsubscribe-page';

vi.mock(import('../api/unsubscribe'), (original) =>
  fakeExports(original, ['readUnsubscribe', 'confirmUnsubscribe']),
);
const api = vi.mocked(unsubscribeApi);

const token = 'x'.repeat(40);

describe('unsubscribe page', () => {
  it('says what the link stops, then confirms', async () => {
    api.readUnsubscribe.mockResolvedValue({
      scope: 'owner',
      email: 'o***@example.com',
      blockName: 'Feedback',
    });
    api.confirmUnsubscribe.mockResolvedValue({ status: true });
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    expect(await screen.findByText('Stop these mails to o***@example.com?')).toBeTruthy();
    expect(
      screen.getByText(
        'Notifications of new responses on “Feedback” and on its owner’s other blocks.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() => expect(api.confirmUnsubscribe).toHaveBeenCalledWith(token));
    expect(
      await screen.findByText('o***@example.com will get no more of these mails.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
    // the button went away: focus is on the heading that says it is done, not on the body
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { level: 1, name: 'You are unsubscribed' }),
    );
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toBeTruthy();
  });

  it('an address that already left these mails is told so, not asked again', async () => {
    api.readUnsubscribe.mockResolvedValue({
      scope: 'letter',
      email: 'r***@example.com',
      blockName: null,
      sender: 'Mina Park',
      unsubscribed: true,
    });
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Already unsubscribed' }),
    ).toBeTruthy();
    expect(screen.getByText(/r\*\*\*@example\.com already gets none of these mails/)).toBeTruthy();
    expect(screen.getByText('Letters from Mina Park.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('names a letter as its mail showed it: the sender, and the title of the one letter, never the block’s name', async () => {
    const cases = [
      [
        { sender: 'Mina Park', title: 'November news' },
        'Letters from Mina Park, such as “November news”.',
      ],
      [{ sender: 'Mina Park', title: null }, 'Letters from Mina Park.'],
      [{}, 'Letters from the sender of this mail.'],
    ] as const;
    try {
      for (const language of ['en', 'ko'] as const) {
        await i18next.changeLanguage(language);
        for (const [seen, en] of cases) {
          api.readUnsubscribe.mockResolvedValue({
            scope: 'letter',
            email: 'r***@example.com',
            blockName: null,
            ...seen,
          });
          renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
          const said = {
            en,
            ko: !('sender' in seen)
              ? '이 메일을 보낸 분의 레터입니다.'
              : seen.title
                ? 'Mina Park의 레터입니다(“November news” 등).'
                : 'Mina Park의 레터입니다.',
          }[language];
          expect(await screen.findByText(said)).toBeTruthy();
          expect(screen.queryByText(/Untitled|으로 보내는/)).toBeNull();
          cleanup();
        }
      }
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('a read that failed on the way offers Try again, and then asks', async () => {
    api.readUnsubscribe.mockRejectedValueOnce(new Error('HTTP 502')).mockResolvedValue({
      scope: 'owner',
      email: 'o***@example.com',
      blockName: 'Feedback',
    });
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    expect(await screen.findByText(/could not check this link/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Unsubscribe' })).toBeTruthy();
  });

  it('keeps the confirmation and says why when unsubscribing fails', async () => {
    api.readUnsubscribe.mockResolvedValue({
      scope: 'reply',
      email: 'i***@example.com',
      blockName: 'Guestbook',
    });
    // the function's 500 as callLinkFunction throws it
    api.confirmUnsubscribe.mockRejectedValue(
      functionError(500, 'internal_error', 'Could not unsubscribe; try again'),
    );
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not unsubscribe: Something went wrong on our side. Try again in a moment.',
    );
    // then a link spent meanwhile (another tab unsubscribed)
    api.confirmUnsubscribe.mockRejectedValue(functionError(400, 'invalid_link', 'Invalid link'));
    await alertsAfterClicks([
      [
        'ko',
        '수신 거부',
        '수신 거부하지 못했습니다: 유효하지 않은 수신 거부 링크입니다. 메일의 링크를 다시 열어 주세요.',
      ],
    ]);
  });

  it('a deleted block’s link with nothing left to stop says so plainly, no button, no error, in en and ko', async () => {
    // rev-mail2 (2026-11-28): the page asked, then said "You are unsubscribed" though nothing was
    // recorded (the block was gone and no owner could be known)
    const texts = {
      en: [
        'Nothing left to stop',
        'The block this mail came from was deleted, so it sends no more mail to o***@example.com. There is nothing to unsubscribe from here, and nothing was changed.',
        'If mails of other blocks reach you, the link in each of them stops those.',
      ],
      ko: [
        '멈출 메일이 없어요',
        '이 메일을 보낸 블록이 삭제되어 o***@example.com(으)로 더 이상 메일을 보내지 않아요. 여기서 수신 거부할 것은 없고, 바뀐 것도 없어요.',
        '다른 블록의 메일을 받으신다면 각 메일에 있는 링크로 멈출 수 있어요.',
      ],
    } as const;
    try {
      for (const language of ['en', 'ko'] as const) {
        await i18next.changeLanguage(language);
        const [title, text, note] = texts[language];
        api.readUnsubscribe.mockResolvedValue({
          scope: 'owner',
          email: 'o***@example.com',
          blockName: null,
          unsubscribed: false,
          gone: true,
        });
        renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
        expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
        expect(screen.getByText(text)).toBeTruthy();
        expect(screen.getByText(note)).toBeTruthy();
        expect(screen.queryByRole('button')).toBeNull();
        expect(screen.queryByRole('alert')).toBeNull();
        cleanup();
      }
    } finally {
      await i18next.changeLanguage('en');
    }
    // deleted between the page's read and the click: the answer says so the same way
    api.readUnsubscribe.mockResolvedValue({
      scope: 'reply',
      email: 'o***@example.com',
      blockName: 'Guestbook',
    });
    api.confirmUnsubscribe.mockResolvedValue({ status: true, gone: true });
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Nothing left to stop' }),
    ).toBeTruthy();
    expect(screen.queryByText(/will get no more of these mails/)).toBeNull();
  });

  it('says so when the link is not valid, and offers no button', async () => {
    api.readUnsubscribe.mockRejectedValue(new Error('Invalid link'));
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?token=forged' });
    expect(await screen.findByText(/This unsubscribe link is not valid/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
