import { formatDate } from '../../../lib/dates';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { DELIVERY_SKIP_REASONS } from '@reaction-blocks/contracts/letters';
import { fakeExports, renderWithProviders, signedInSession } from '../../../test/utils';
import * as lettersApi from '../api/letters';
import type { PublishRow } from '../api/letters';
import { registerLetterTranslations } from '../locales';
import { HistoryView } from './history-view';

vi.mock(import('../api/letters'), (original) =>
  fakeExports(original, ['listPublishes', 'listNotSentReasons']),
);
const api = vi.mocked(lettersApi);

registerLetterTranslations();

const publish = (fields: Partial<PublishRow> = {}): PublishRow =>
  ({
    id: 'p1',
    block_id: 'b1',
    user_id: 'user-1',
    subject: 'Weekly letter',
    html: '<p>hi</p>',
    text: 'hi',
    group_name: null,
    mail_from: 'me@example.com',
    mail_name: null,
    reply_to: null,
    created_at: '2026-11-20T00:00:00Z',
    reserved_count: 3,
    sent_count: 0,
    delivered_count: 0,
    opened_count: 0,
    bounced_count: 0,
    rejected_count: 0,
    complaint_count: 0,
    skipped_count: 1,
    failed_count: 2,
    trigger_block_id: null,
    trigger_block: null,
    ...fields,
  }) as PublishRow;

describe('letter history', () => {
  it('says why mails were not sent: SES refusing the sender (with the way to fix it), a skip rule, another answer', async () => {
    api.listPublishes.mockResolvedValue([publish()]);
    api.listNotSentReasons.mockResolvedValue([
      {
        status: 'failed',
        reason:
          'MessageRejected: Email address is not verified. The following identities failed the check in region US-EAST-1: me@example.com',
      },
      { status: 'skipped', reason: DELIVERY_SKIP_REASONS.unsubscribed },
      { status: 'failed', reason: 'MessageRejected: Illegal address' },
    ]);
    renderWithProviders(<HistoryView blockId="b1" />, { session: signedInSession() });
    const box = await screen.findByRole('region', { name: 'Why some were not sent' });
    expect(
      within(box).getByText(/Amazon SES does not send from this sender address now/),
    ).toBeTruthy();
    expect(within(box).getByRole('link', { name: 'Sender emails' }).getAttribute('href')).toBe(
      '/profile/email',
    );
    expect(
      within(box).getByText('Skipped: the address unsubscribed from your letters.'),
    ).toBeTruthy();
    expect(within(box).getByText('Failed: MessageRejected: Illegal address')).toBeTruthy();
    expect(api.listNotSentReasons).toHaveBeenCalledWith('p1', expect.any(AbortSignal));
  });

  it('names each send by its audience in words, never by the internal group id', async () => {
    api.listPublishes.mockResolvedValue([
      publish({ id: 'p1', subject: 'To all', group_name: 'activated', failed_count: 0 }),
      publish({ id: 'p2', subject: 'To friends', group_name: 'friends', failed_count: 0 }),
      publish({ id: 'p3', subject: 'Typed', group_name: null, failed_count: 0 }),
      publish({
        id: 'p4',
        subject: 'Welcome',
        failed_count: 0,
        trigger_block_id: 'form-1',
        trigger_block: { name: 'Sign-up form' },
      }),
    ]);
    renderWithProviders(<HistoryView blockId="b1" />, { session: signedInSession() });
    const list = await screen.findByRole('navigation', { name: 'Sent letters' });
    await within(list).findByText(/To everyone in your audience/);
    expect(within(list).getByText(/To the group friends/)).toBeTruthy();
    expect(within(list).getByText(/To typed-in addresses/)).toBeTruthy();
    expect(
      within(list).getByText(/Automatic: to each new address of the form Sign-up form/),
    ).toBeTruthy();
    expect(list.textContent).not.toMatch(/activated/);
    // two sends of one day told apart: the day and the time, in the reader's zone (rev-uncov3 D5)
    const shown = formatDate('2026-11-20T00:00:00Z', { time: 'minutes' });
    expect(shown).toMatch(/^26\.11\.2[01] \d\d:\d\d$/);
    expect(within(list).getAllByText(shown)).toHaveLength(4);
  });

  it('asks nothing when every mail went, and speaks Korean', async () => {
    api.listPublishes.mockResolvedValue([publish({ failed_count: 0, skipped_count: 0 })]);
    renderWithProviders(<HistoryView blockId="b1" />, { session: signedInSession() });
    await screen.findByRole('heading', { name: 'Weekly letter' });
    expect(api.listNotSentReasons).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Why some were not sent' })).toBeNull();

    await i18next.changeLanguage('ko');
    try {
      api.listPublishes.mockResolvedValue([publish({ id: 'p2', failed_count: 0 })]);
      api.listNotSentReasons.mockResolvedValue([
        { status: 'skipped', reason: DELIVERY_SKIP_REASONS.senderNotVerified },
      ]);
      renderWithProviders(<HistoryView blockId="b2" />, { session: signedInSession() });
      expect(
        await screen.findByText('제외: 발신 주소가 삭제되었거나 더 이상 인증되지 않았습니다.'),
      ).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
