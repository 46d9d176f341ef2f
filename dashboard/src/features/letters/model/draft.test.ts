import { formatDate } from '../../../lib/dates';
import { describe, expect, it } from 'vitest';
import {
  canSend,
  draftToSave,
  firstAddresses,
  openLetter,
  pickSender,
  readLetterModel,
  withoutBlock,
} from './draft';
import type { LetterData } from '../api/letters';
import { letterMessage } from './messages';
import { emptyLetter, ZSaveLetter } from '@reaction-blocks/contracts/letters';

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

  it('a stored letter that no longer parses keeps the parts that do and counts the rest (B9)', () => {
    // stored before the image rule refused a user name or password (3031f41d)
    const stored = {
      version: 1,
      source: { mode: 'notion', url: 'https://x.notion.site/page' },
      blocks: [
        { id: 'p1', type: 'paragraph', spans: [{ text: 'Hello' }] },
        { id: 'i1', type: 'image', src: 'https://user:pw@cdn.example.com/a.png' },
        { id: 'd1', type: 'divider' },
      ],
      cta: { text: 'Read', link: 'https://example.com/read' },
      imageButton: { src: 'https://user:pw@cdn.example.com/b.png', link: 'https://example.com' },
    };
    const data = {
      block: { name: 'Weekly', language: 'en' },
      private: { letter: stored, mail_title: 'Hi', mail_from: '', mail_name: '', page_url: '' },
    } as unknown as LetterData;
    const opened = openLetter(data);
    const { draft } = opened;
    expect(draft.model.blocks.map((b) => b.id)).toEqual(['p1', 'd1']);
    expect(draft.model.cta).toEqual(stored.cta);
    expect(draft.model.imageButton).toBeNull();
    expect(draft.model.source).toEqual(stored.source);
    expect(opened.leftOut).toBe(2);
    // the same stored copy is read once: asked again, the same answer
    expect(openLetter(data)).toBe(opened);
    // what Save would store is a valid letter with the rest of it, not an empty one
    expect(
      ZSaveLetter.safeParse(draftToSave('7f3c1c2e-4b6a-4d8e-9a1b-2c3d4e5f6a7b', draft, false))
        .success,
    ).toBe(true);

    // a letter that parses, and nothing stored, leave nothing out
    const good = { ...stored, blocks: stored.blocks.slice(0, 1), imageButton: null };
    expect(readLetterModel(good)).toEqual({ model: good, leftOut: 0 });
    expect(readLetterModel(null)).toEqual({ model: emptyLetter(), leftOut: 0 });
    // something stored that is not a letter at all is said, not silently emptied
    expect(readLetterModel('not a letter')).toEqual({ model: emptyLetter(), leftOut: 1 });
  });
});
