import { formatDate } from '../../../lib/dates';
import { describe, expect, it } from 'vitest';
import { canSend, firstAddresses, pickSender, withoutBlock } from './draft';
import { letterMessage } from './messages';
import { emptyLetter } from '@reaction-blocks/contracts/letters';

describe('letter draft rules', () => {
  it('the sender: a verified one stays, another is cleared, none takes the first verified', () => {
    const senders = [
      { email: 'a@x.com', status: 'pending' as const },
      { email: 'b@x.com', status: 'verified' as const },
      { email: 'c@x.com', status: 'verified' as const },
    ];
    expect(pickSender('c@x.com', senders)).toBe('c@x.com');
    expect(pickSender('a@x.com', senders)).toBe('b@x.com');
    expect(pickSender('', senders)).toBe('b@x.com');
    expect(pickSender('a@x.com', [])).toBe('');
  });

  it('Send letter shows only when saved, with a sender and HTML, and not loading', () => {
    const ok = { dirty: false, hasHtml: true, mailFrom: 'a@x.com', loading: false };
    expect(canSend(ok)).toBe(true);
    expect(canSend({ ...ok, dirty: true })).toBe(false);
    expect(canSend({ ...ok, hasHtml: false })).toBe(false);
    expect(canSend({ ...ok, mailFrom: '' })).toBe(false);
    expect(canSend({ ...ok, loading: true })).toBe(false);
  });

  it('deletes a row by id and keeps the rest in order', () => {
    const model = {
      ...emptyLetter(),
      blocks: [
        { id: 'a', type: 'divider' as const },
        { id: 'b', type: 'divider' as const },
        { id: 'c', type: 'divider' as const },
      ],
    };
    expect(withoutBlock(model, 'b').blocks.map((b) => b.id)).toEqual(['a', 'c']);
  });

  it('lists up to five addresses, then an ellipsis; dates as YY.MM.DD', () => {
    expect(firstAddresses(['1', '2', '3'])).toBe('1, 2, 3');
    expect(firstAddresses(['1', '2', '3', '4', '5', '6'])).toBe('1, 2, 3, 4, 5, …');
    // the one date format (lib/dates.ts), which the history now uses
    expect(formatDate('2026-03-05T10:00:00')).toBe('26.03.05');
  });

  it('the server messages in the reader language', () => {
    const t = ((key: string, o?: Record<string, string>) =>
      `${key}${o ? JSON.stringify(o) : ''}`) as never;
    expect(letterMessage(t, "It's not your article")).toBe('letters.errors.notYourArticle');
    expect(letterMessage(t, "Please enter link of me's article.")).toBe(
      'letters.errors.writerArticle{"writer":"me"}',
    );
    expect(letterMessage(t, 'Something else')).toBe('Something else');
  });
});
