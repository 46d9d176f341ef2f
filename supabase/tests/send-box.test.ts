// The letter send box as units: splitRecipients, recipientAddress and parseRecipients
// (contracts/recipients.ts), which the dashboard's Send dialog and send-letter both read a pasted
// list with: separators, names and brackets, invisible marks, glued entries, the named bad ones,
// and hostile pastes read in one pass. letter-sends.test.ts checks the dialog and the function
// agree through the stack.
import { describe, expect, it } from 'vitest';
import {
  LETTER_MESSAGES,
  namedEntries,
  parseRecipients,
  recipientAddress,
  shortEntry,
  SHOWN_MARK,
  splitRecipients,
  ZRecipients,
} from '@reaction-blocks/contracts/letters';

/**
 * Every invisible mark the send box reads (recipients.ts `INVISIBLE`), one by one: soft hyphen,
 * ALM, MVS, ZWSP, ZWNJ, ZWJ, LRM, RLM, the bidi embeddings and overrides, word joiner, the
 * invisible operators, the isolates and the deprecated format controls, BOM.
 */
const INVISIBLE_MARKS = (
  [
    [0xad, 0xad],
    [0x61c, 0x61c],
    [0x180e, 0x180e],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x2064],
    [0x2066, 0x206f],
    [0xfeff, 0xfeff],
  ] satisfies [number, number][]
).flatMap(([from, to]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)),
);
/** Of them, the right-to-left embedding, override and isolate, which reorder what the box draws (G7). */
const REORDERING_MARKS = ['\u202b', '\u202e', '\u2067'];
/** The right-to-left and Arabic letter marks and the first-strong isolate: they reorder digits after them (H1). */
const BEFORE_DIGIT_MARKS = ['\u061c', '\u200f', '\u2068'];
/** The marks that draw the letters around them where they are. */
const IN_PLACE_MARKS = INVISIBLE_MARKS.filter((mark) => !REORDERING_MARKS.includes(mark));

describe('the send box', () => {
  it('the manual send box: commas, semicolons, lines and spaces; "Name <address>"; repeats once; bad entries named', () => {
    expect(parseRecipients('Ann <ann@example.com>; bob@example.com')).toMatchObject({
      emails: ['ann@example.com', 'bob@example.com'],
      error: null,
    });
    expect(
      parseRecipients('"Smith, Ann" <ANN@x.com>, <b@y.org>\n\n c@z.net d@z.net ;ann@X.com,'),
    ).toEqual({
      emails: ['ann@x.com', 'b@y.org', 'c@z.net', 'd@z.net'],
      duplicates: 1,
      invalid: [],
      error: null,
    });
    // what a Korean input method types between addresses: separators, never part of an address
    // (rev-break D2)
    expect(
      parseRecipients('a@x.com\u3000b@x.com\uff0cc@x.com\uff1bd@x.com\u3001e@x.com\u2028g@x.com'),
    ).toMatchObject({
      emails: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com', 'e@x.com', 'g@x.com'],
      error: null,
    });
    // a name with no address of its own, a broken line, HTML outside quotes: named, in order
    const bad = parseRecipients('a@x.com Carl Jones\nAnn\n<ann@x.com>, <b>Ann</b> <c@x.com>, x@');
    expect(bad).toMatchObject({
      invalid: ['Carl Jones', 'Ann', '<b>Ann</b>', 'x@'],
      error: 'Email address is invalid',
    });
    expect(
      ZRecipients.safeParse(splitRecipients('Carl Jones, a@x.com, x@, y@, z@')).error?.issues[0]
        ?.message,
    ).toBe('Email address is invalid: "Carl Jones", "x@", "y@" and 1 more');
    // 100 addresses once each are taken however often they repeat; 101 are not
    const repeated = Array.from({ length: 300 }, (_, i) => `u${i % 100}@x.com`).join('\n');
    expect(parseRecipients(repeated)).toMatchObject({ duplicates: 200, error: null });
    expect(
      parseRecipients(Array.from({ length: 101 }, (_, i) => `u${i}@x.com`).join(',')).error,
    ).toBe('You can send 100 emails at once by manual sending');
    // hostile pastes: 10,000 addresses and 1 MB with no separator are refused, and at once;
    // over 1,000 entries is said as entries, even when they are one address (before: "100 emails")
    expect(
      parseRecipients(Array.from({ length: 10_000 }, (_, i) => `u${i}@x.com`).join(' ')).error,
    ).toBe('Paste at most 1,000 entries at once (100 different addresses)');
    expect(parseRecipients(Array(1001).fill('a@x.com').join(',')).error).toBe(
      'Paste at most 1,000 entries at once (100 different addresses)',
    );
    expect(parseRecipients(Array(1000).fill('a@x.com').join(',')).emails).toEqual(['a@x.com']);
    expect(parseRecipients('x'.repeat(1 << 20)).invalid).toHaveLength(1);
    expect(shortEntry('x'.repeat(1 << 20))).toHaveLength(40);
    // a spreadsheet's text prefix: `'a@x.com` in the box is a@x.com, in a column (lines) or a
    // row (tabs); read off once, by the split: an entry given to the server is its address as
    // written (F2); Outlook's 'Last, First' is still a quoted name
    expect(parseRecipients("'a@x.com\n'B@x.com\t'c@x.com\t'mailto:d@x.com")).toMatchObject({
      emails: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com'],
      invalid: [],
    });
    expect(recipientAddress("'a@x.com")).toBe("'a@x.com");
    expect(ZRecipients.parse(splitRecipients("'a@x.com a@x.com"))).toEqual(['a@x.com']);
    expect(splitRecipients("'Smith, Ann' <ann@x.com>, 'b@x.com")).toEqual([
      "'Smith, Ann' <ann@x.com>",
      'b@x.com',
    ]);
    // an apostrophe inside an address is the address's own
    expect(parseRecipients("o'brien@x.com").emails).toEqual(["o'brien@x.com"]);
    // a quoted name ends at a line's end, Unicode's line separators too
    expect(parseRecipients('"Ann\u2028a@x.com, b@x.com').invalid).toEqual(['"Ann']);
    // a stray quote takes no address with it (before: the rest of its line was one bad entry)
    expect(splitRecipients('O"Brien <a@x.com>, b@x.com, c@x.com')).toEqual([
      'O"Brien <a@x.com>',
      'b@x.com',
      'c@x.com',
    ]);
    expect(parseRecipients('O"Brien <a@x.com>, b@x.com').emails).toEqual(['a@x.com', 'b@x.com']);
    expect(parseRecipients('"unterminated a@x.com, b@x.com')).toMatchObject({
      invalid: ['"unterminated'],
    });
    expect(splitRecipients('"unterminated a@x.com, b@x.com')).toEqual([
      '"unterminated',
      'a@x.com',
      'b@x.com',
    ]);
    expect(splitRecipients('"Ann\n" <a@x.com>, b@x.com')).toEqual([
      '"Ann',
      '" <a@x.com>',
      'b@x.com',
    ]);
    expect(parseRecipients('"Ann\n" <a@x.com>, b@x.com').invalid).toEqual(['"Ann']);
    // spaces inside the brackets, and what a copied mail link carries
    expect(parseRecipients('Ann < a@x.com >, <mailto:B@x.com>, mailto:c@x.com').emails).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
    ]);
    // a `<` never closed before the comma is a stray one: it takes no address (rev-break2 R5)
    expect(parseRecipients('Ann < a@x.com, b@x.com').invalid).toEqual(['Ann <']);
    expect(splitRecipients('x < a@x.com b@x.com, <3 c@x.com')).toEqual([
      'x <',
      'a@x.com',
      'b@x.com',
      '<3',
      'c@x.com',
    ]);
    // invisible marks dropped, full-width ＠＜＞ read, a handle as a name (rev-break2 R3, R4, R6)
    expect(
      parseRecipients(
        '\u200ea@x.com\u200f, b\u00ad@x.com 김 ＜k＠x.com＞ <d@x.com> @lee <e@x.com>',
      ),
    ).toMatchObject({
      emails: ['a@x.com', 'b@x.com', 'k@x.com', 'd@x.com', 'e@x.com'],
      invalid: [],
    });
    // an address before a bracket stays an address of its own: both are sent
    expect(parseRecipients('a@x.com <b@x.com>').emails).toEqual(['a@x.com', 'b@x.com']);
    // Outlook's single-quoted names (rev-break2 R1: each was a bad entry)
    expect(
      parseRecipients(
        "'ann@x.com' <ann@x.com>, 'Smith, Bo' <bo@x.com>, 'Cy <c>' <cy@x.com>, O'Brien <d@x.com>",
      ),
    ).toMatchObject({ emails: ['ann@x.com', 'bo@x.com', 'cy@x.com', 'd@x.com'], invalid: [] });
    // a quote of one kind is not closed by the other: a stray one, and the name of the address after it
    expect(parseRecipients('"Ann\' <a@x.com>, b@x.com').emails).toEqual(['a@x.com', 'b@x.com']);
    // a quoted name holding brackets stays the name
    expect(parseRecipients('"Ann <x" <a@x.com>, "Bo <y>" <b@x.com>').emails).toEqual([
      'a@x.com',
      'b@x.com',
    ]);
  });

  it('the send box: an invisible mark (zero-width space, BOM, LRM, word joiner, ...) is dropped inside an address and ends a whole one', () => {
    // where a page lets a long address wrap (after `@`, around a dot or hyphen) and a pasted
    // file's first character: dropped, never a word's end (before rev N3: `b@` and `x.com`)
    expect(
      parseRecipients('\ufeffa@x.com, b@\u200bx.com\n<c@x.\ufeffcom>, Dee\u200b <d@x.com>'),
    ).toMatchObject({ emails: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com'], invalid: [] });
    expect(recipientAddress('\u200bb@\u200bx.com\ufeff')).toBe('b@x.com');
    expect(
      splitRecipients('a\u200b@x.com e@x.co\u200b.kr f@x.co\ufeff-op.kr mailto:\u200bg@x.com'),
    ).toEqual(['a@x.com', 'e@x.co.kr', 'f@x.co-op.kr', 'mailto:g@x.com']);
    // right after a whole address (or a bracket's `>`) it ends the word, as a chat's or a
    // spreadsheet's copy separates an address from the next one or from a name (B6; before, the
    // name glued on: `a@x.comBob` is an address shape, and it was sent)
    expect(splitRecipients('a@x.com\u200bb@y.com\u200b<c@y.com>\u200b<d@y.com>')).toEqual([
      'a@x.com',
      'b@y.com',
      '<c@y.com>',
      '<d@y.com>',
    ]);
    // every invisible mark that draws its letters in place follows that one rule (the ones that
    // reorder are always shown: the third round's case), a run of mixed ones too (BRK-2: an LRM, a word
    // joiner, ZWNJ, a bidi isolate, a soft hyphen ... after `a@x.com` was dropped before the
    // split, and `a@x.com`LRM`Bob <b@y.com>` was sent to a@x.combob). Where the word after it
    // would make a longer address (`Bob`), the box cannot tell a name from a wrap: the mark is
    // shown (␣) and the entry named, never guessed (BRK-10)
    for (const mark of [...IN_PLACE_MARKS, '\u200b\ufeff\u200b', '\u200e\u2060\u00ad\u2069']) {
      const named = `U+${mark.codePointAt(0)!.toString(16)} (${mark.length})`;
      expect(parseRecipients(`a@x.com${mark}Bob <b@y.com>`), named).toEqual({
        emails: [],
        duplicates: 0,
        invalid: [`a@x.com${SHOWN_MARK}Bob`],
        error: LETTER_MESSAGES.emailInvalid,
      });
      expect(parseRecipients(`a@x.com${mark}김철수 <b@y.com>`).emails, named).toEqual([
        'a@x.com',
        'b@y.com',
      ]);
      expect(splitRecipients(`mailto:a@x.com${mark}Bob`), named).toEqual([
        `mailto:a@x.com${SHOWN_MARK}Bob`,
      ]);
      // a wrap inside the last label, the paste's entries joined by marks too: before, sent to
      // a@x.co and mb@y.com (or a@x.co and b@y.com), both strangers' domains
      for (const box of [
        `a@x.co${mark}m${mark}b@y.com`,
        `a@x.co${mark}m${mark}Bob <b@y.com>`,
        `a@x.co${mark}m${mark}<b@y.com>`,
        `a@x.ne${mark}t${mark}Kim <b@y.com>`,
      ])
        expect(parseRecipients(box), `${named} ${box}`).toMatchObject({
          emails: [],
          error: LETTER_MESSAGES.emailInvalid,
        });
      expect(splitRecipients(`a@x.com${mark}b@y.com${mark}<c@y.com>${mark}Cy`), named).toEqual([
        'a@x.com',
        'b@y.com',
        '<c@y.com>',
        'Cy',
      ]);
      // inside an address and around it: dropped, as given to the server too
      expect(recipientAddress(`${mark}b@${mark}x.${mark}co${mark}.kr${mark}`), named).toBe(
        'b@x.co.kr',
      );
      expect(ZRecipients.parse([`Ann <${mark}a@x.com${mark}>`]), named).toEqual(['a@x.com']);
      expect(recipientAddress(`b@x.com${mark}Bob`), named).toBeNull();
    }
    // so a break inside the last label reads as neither: the box cannot tell `m` from a name, and
    // the send is refused naming the entry with its mark shown, rather than sent to a wrong address
    expect(parseRecipients('a@x.co\u200bm, b@\u200bx.com')).toMatchObject({
      invalid: [`a@x.co${SHOWN_MARK}m`],
      error: 'Email address is invalid',
    });
    // in brackets, through the dialog's read and as an entry the server is given
    expect(
      parseRecipients('Ann <a@x.com\u200b>, Bo <\ufeffb@\u200bx.com\ufeff>, "Cy" <c@x.com>\u200b'),
    ).toEqual({
      emails: ['a@x.com', 'b@x.com', 'c@x.com'],
      duplicates: 0,
      invalid: [],
      error: null,
    });
    expect(ZRecipients.parse(['Ann <a@x.com\u200b>'])).toEqual(['a@x.com']);
    expect(recipientAddress('b@x.com\u200bBob')).toBeNull();
    // a hostile paste: 100,000 of them, after an address and inside a word, read in one pass
    expect(splitRecipients(`a@x.com${'\u200b'.repeat(100_000)}b@y.com`)).toEqual([
      'a@x.com',
      'b@y.com',
    ]);
    // (between two letters of a local part a mark may join a word to an address: shown, F1)
    expect(splitRecipients(`${'a\u200b'.repeat(100_000)}@x.com`)).toEqual([
      `a${SHOWN_MARK}${'a'.repeat(99_999)}@x.com`,
    ]);
    const mixed = Array.from(
      { length: 100_000 },
      (_, i) => IN_PLACE_MARKS[i % IN_PLACE_MARKS.length],
    ).join('');
    expect(splitRecipients(`a@x.com${mixed}Bob`)).toEqual([`a@x.com${SHOWN_MARK}Bob`]);
    // an address glued to a word is never a bracket's name (BRK-2b: before, a@x.com was dropped
    // unsaid and the mail went to c@z.com alone); a Hangul filler is a blank
    expect(parseRecipients('a@x.com\u3164김철수 <c@z.com>').emails).toEqual(['a@x.com', 'c@z.com']);
    for (const box of ['a@x.com김철수 <c@z.com>', 'a@x.com<c@z.com>', 'Ann a@x.co\u200bm<c@z.com>'])
      expect(parseRecipients(box), box).toMatchObject({
        emails: [],
        error: LETTER_MESSAGES.emailInvalid,
      });
    expect(ZRecipients.safeParse(['a@x.com<c@z.com>']).success).toBe(false);
    expect(parseRecipients('@ann <a@x.com>, A@x.com<a@x.com>').emails).toEqual(['a@x.com']);
    expect(splitRecipients(`${[...mixed].map((mark) => `a${mark}`).join('')}@x.com`)).toEqual([
      `a${SHOWN_MARK}${'a'.repeat(99_999)}@x.com`,
    ]);
  });

  it("the send box, the breaker's second round: a word joined to an address by marks is shown, an @ word before a bracket is an entry, a quote closes at a word's end, the text prefix is read once", () => {
    const Z = '\u200b';
    const M = SHOWN_MARK;
    // [box, the dialog's addresses, its bad entries]; each failed before, but for the kept readings
    const boxes: [string, string[], string[]][] = [
      // F1: a name, a phone or a label cell joined to an address: a wrap inside the local part or
      // a join, never glued (before: bobbob@x.com, 010-1234-5678kim@x.com, emaila@x.com mailed)
      [`Bob${Z}bob@x.com\nAnn${Z}ann@y.com`, [], [`Bob${M}bob@x.com`, `Ann${M}ann@y.com`]],
      [`010-1234-5678${Z}kim@x.com`, [], [`010-1234-5678${M}kim@x.com`]],
      [`Email${Z}a@x.com`, [], [`Email${M}a@x.com`]],
      [`<a@x.com>${Z}Bob${Z}bob@y.com`, [], [`Bob${M}bob@y.com`]],
      [`<c@z.com>\u200eco\u2060${Z}m@b${Z}.co`, [], [`co${M}m@b.co`]],
      [`Bob <mb@y.com>\u200eBob\u00admb@y.com`, [], [`Bob${M}mb@y.com`]],
      // the word reaches its `@` only after another run: the first run is the one shown
      [`Bo${Z}b${Z}@x.com`, [], [`Bo${M}b@x.com`]],
      // the surely-wraps: at the `@`, after a dot, after mailto:, with no word before
      [
        `a${Z}@x.com, first.${Z}last@x.com; mailto:${Z}g@x.com \u200eh@x.com\u200f`,
        ['a@x.com', 'first.last@x.com', 'g@x.com', 'h@x.com'],
        [],
      ],
      // F6: a whole address, a full stop or a dash, marks, a word (before: a@x.com.bob mailed)
      [`a@x.com.${Z}Bob <e@w.net>`, [], [`a@x.com.${M}Bob`]],
      [`e@w.net.\u200e\u2060Bob <e@w.net>`, [], [`e@w.net.${M}Bob`]],
      [`m@n.org-\ufeffDr.\ufeffBob <e@w.net>`, [], [`m@n.org-${M}Dr.Bob`]],
      // ... but a country's two letters after the commonest wrap are the address's
      [`a@x.co.${Z}kr kim@snu.${Z}ac.${Z}kr`, ['a@x.co.kr', 'kim@snu.ac.kr'], []],
      // F7: a name glued to an address before a bracket (before: only the bracket's address)
      [`김철수${Z}kim@x.com <lee@y.com>`, [], [`김철수${M}kim@x.com`]],
      [`(Bob)${Z}mailto:c.d@z.com <e@w.net>`, [], ['(Bob)mailto:c.d@z.com']],
      [`"Lee, Ann"${Z}a@x.com Bob <e@w.net>`, [], ['"Lee', 'Ann"a@x.com']],
      [`'Kim, B'${Z}c@z.com <b@y.com>`, [], ["'Kim", `B'${M}c@z.com`]],
      ['"a@x.com <b@y.com>', [], ['"a@x.com <b@y.com>']],
      // F4: a quote closes where its closing quote ends a word (before: c@z.com inside a
      // "quoted name" closed by O'Neil's apostrophe; Outlook's 'O'Neil, Pat' refused)
      [`'Bob, c@z.com, O'Neil <o@z.com>`, [], ["'Bob"]],
      [`'Lee, Ann' <ann@x.com>; 'O'Neil, Pat' <pat@x.com>`, ['ann@x.com', 'pat@x.com'], []],
      [`" <b@y.com>, " <a@x.com>`, ['b@y.com', 'a@x.com'], []],
      // kept: a handle and a closed quoted name are names
      [`@kim <kim@x.com>, 'ann@x.com' <ann@x.com>`, ['kim@x.com', 'ann@x.com'], []],
      // F2: the spreadsheet prefix read off once (before: the dialog said 'b@y.co, send-letter
      // mailed b@y.co)
      [`mailto:'b@y.co <''b@x.com>`, ["'b@y.co", "''b@x.com"], []],
      [`'''b@x.com`, ["''b@x.com"], []],
      [`''b@x.com 'c@x.com`, ["'b@x.com", 'c@x.com'], []],
      // F5: a copied list's bullets and numbers are read off at a line's start (before: named)
      [
        `- a@x.com\n- b@y.com\n\u2022\tc@z.com\r\n1. d@w.net\n2) Kim <k@x.com>`,
        ['a@x.com', 'b@y.com', 'c@z.com', 'd@w.net', 'k@x.com'],
        [],
      ],
      ['a@x.com - b@y.com', [], ['-']],
      // a sheet's name cells, a tab, the address: the row's address (before: Bob, Ann named); a
      // cell that could be a mistyped address, or a name after a space, stays named
      [
        'Bob\tbob@x.com\r\nKim Cheolsu\tkim@x.com\nAnn\tSmith\tann@y.com',
        ['bob@x.com', 'kim@x.com', 'ann@y.com'],
        [],
      ],
      [
        'kim.naver.com\tlee@y.com\nDr. Kim\tkim@x.com\n홍길동 hong@naver.com',
        [],
        ['kim.naver.com', 'Dr. Kim', '홍길동'],
      ],
      // chips copied with nothing between them: nothing after a bracket's `>` is its address's
      [
        'Bob <b@x.com>Ann <a@y.com>홍길동<hong@naver.com><c@z.com>d@w.net',
        ['b@x.com', 'a@y.com', 'hong@naver.com', 'c@z.com', 'd@w.net'],
        [],
      ],
      ['<b@x.com><a@y.com Bob, c@z.com', [], ['<a@y.com', 'Bob']],
      // F8: a bracket holds one address and no name, so a mark inside it is a wrap (before:
      // Bob <a@x.co␣m> named); a bracket not closed in the word is read as before
      [
        `Bob <a@x.co${Z}m>, <kim@naver.co\u00adm${Z}>, "Lee, Ann" <ann@company.co${Z}m>`,
        ['a@x.com', 'kim@naver.com', 'ann@company.com'],
        [],
      ],
      [`Bob <a@x.co${Z}m Ann <b@y.com>`, [], [`Bob <a@x.co${M}m Ann <b@y.com>`]],
    ];
    // F3: an address, decorated, mistyped or glued, right before a bracket (before: dropped
    // unsaid, only c@z.com mailed); `Ann@Home` is the same shape as the mistyped `a@x`
    for (const name of [
      'kim@naver.com.',
      'kim@naver.com-',
      'kim@naver..com',
      '(kim@naver.com)',
      '[a@x.com]',
      'Bob(a@x.com)',
      'a@x.com-김철수',
      'a@x.com.김철수',
      'a@x.com1',
      'a@x',
      'Ann@Home',
      `${'x'.repeat(95)}@x.com`,
    ])
      boxes.push([`${name} <c@z.com>`, [], [name]]);
    for (const mark of INVISIBLE_MARKS)
      boxes.push([
        `Bob${mark}bob@x.com, a@x.com.${mark}Bob`,
        [],
        [`Bob${M}bob@x.com`, `a@x.com.${M}Bob`],
      ]);
    for (const [box, emails, invalid] of boxes) {
      const read = parseRecipients(box);
      expect(read, box).toMatchObject({ emails, invalid });
      // the server given the split's entries, or the dialog's addresses, says the same
      expect(ZRecipients.safeParse(splitRecipients(box)).success, box).toBe(invalid.length === 0);
      if (read.error === null) expect(ZRecipients.parse(read.emails), box).toEqual(emails);
      // an entry's address is its own answer (F2)
      for (const entry of splitRecipients(box)) {
        const address = recipientAddress(entry);
        if (address !== null) expect(recipientAddress(address), entry).toBe(address);
      }
    }
    // the same entries given to send-letter whole: refused, never sent to the bracket alone
    for (const entry of [
      `'Bob, c@z.com, O'Neil <o@z.com>`,
      '"Lee, Ann"a@x.com Bob <e@w.net>',
      'kim@naver.com. <c@z.com>',
      `Bob${M}bob@x.com <c@z.com>`,
    ])
      expect(ZRecipients.safeParse([entry]).success, entry).toBe(false);
    // F9: a long entry is cut around its shown mark
    const [named] = namedEntries(
      parseRecipients(`firstname.lastname.team.lead@company.co${Z}m`).invalid,
    ).named;
    expect(named).toBe(`…rstname.lastname.team.lead@company.co${M}m`);
    // hostile: 100,000 entries of these shapes, read in one pass
    const hostile = Array.from({ length: 100_000 }, (_, i) => boxes[i % boxes.length]![0]);
    expect(splitRecipients(hostile.join('\n'), Infinity).length).toBeGreaterThan(100_000);
  });

  it("the send box, the breaker's third round: a mark that reorders what is drawn is shown, a quoted name holding another address is bad", () => {
    const M = SHOWN_MARK;
    // [box, the dialog's bad entries]; nothing is sent. Each failed before: G7 mailed the reversed
    // address the box drew right (ceo@ynapmoc.com, oec@company.com), G1 dropped the addresses
    // inside a quote that closed at a later word's end unsaid (only the last bracket was mailed)
    const boxes: [string, string[]][] = [
      // G7: an override, an embedding or an isolate inside, before or after an address
      ['ceo@\u202eynapmoc\u202c.com', [`ceo@${M}ynapmoc.com`]],
      ['Bob <ceo@\u202eynapmoc\u202c.com>', [`Bob <ceo@${M}ynapmoc.com>`]],
      ['\u202eoec\u202c@company.com', [`${M}oec@company.com`]],
      ['\u202bceo@x.com\u202c', [`${M}ceo@x.com`]],
      // an override reaches past spaces and commas to the line's end
      ['a@x.com \u202emoc.liam@ku.oc', [`${M}moc.liam@ku.oc`]],
      ['a@x.com\u202e, ku.oc@ten.xx', [`a@x.com${M}`]],
      ['"Bob \u202e" <moc.y@b.co>', [`"Bob ${M}" <moc.y@b.co>`]],
      // G1: a quote opening a word and closing at a later word's end on the line
      ['"Ann"ann@x.com, "Bob" <b@y.com>', ['"Ann"ann@x.com, "Bob" <b@y.com>']],
      [
        "'Lee, Ann'bob@x.com, c@z.com, 'Kim, B' <k@x.com>",
        ["'Lee, Ann'bob@x.com, c@z.com, 'Kim, B' <k@x.com>"],
      ],
      [
        "'Kim e@w.net; 'O'Neil, Pat' <kim.lee@naver.com>",
        ["'Kim e@w.net; 'O'Neil, Pat' <kim.lee@naver.com>"],
      ],
      ['"Kim <kim@x.com>, Lee" <lee@y.com>', ['"Kim <kim@x.com>, Lee" <lee@y.com>']],
      ['"Kim\tkim@x.com, "Bob" <b@y.com>', ['"Kim\tkim@x.com, "Bob" <b@y.com>']],
      [
        "<bob@x.com>, 'til (Bob); Ann <e@w.net>; the Jones' <j@x.com>",
        ["'til (Bob); Ann <e@w.net>; the Jones' <j@x.com>"],
      ],
      // G3: in a bracket, a mark before the `@` between a word and the local part's rest is
      // shown as outside (before: bobbob@x.com, 010-1234-5678kim@x.com mailed)
      ['<Bob\u200bbob@x.com>', [`<Bob${M}bob@x.com>`]],
      ['Bob <010-1234-5678\u200ekim@x.com>', [`Bob <010-1234-5678${M}kim@x.com>`]],
      ['<Bo\u200bb\u200b@x.com>', [`<Bo${M}b@x.com>`]],
      // G6: a `-`, `+` or `_` glued after a chip's `>` (before: -b@y.com, +b@y.com mailed)
      ['<a@x.com>-b@y.com', ['<a@x.com>-b@y.com']],
      ['<a@x.com>+b@y.com, <c@z.com>_d@w.net', ['<a@x.com>+b@y.com', '<c@z.com>_d@w.net']],
    ];
    for (const [box, invalid] of boxes) {
      expect(parseRecipients(box), box).toMatchObject({ emails: [], invalid });
      expect(ZRecipients.safeParse(splitRecipients(box)).success, box).toBe(false);
    }
    for (const mark of REORDERING_MARKS) {
      const named = `U+${mark.codePointAt(0)!.toString(16)}`;
      expect(recipientAddress(`b@x.${mark}com`), named).toBeNull();
      expect(parseRecipients(`Ann <${mark}a@x.com>`).invalid, named).toEqual([`Ann <${M}a@x.com>`]);
    }
    // kept: a bracket's surely-wraps, chips run on, a quoted name that is the address itself or
    // holds no other address
    expect(
      parseRecipients('<first.\u200blast@x.com>, <a\u200b@x.com> Bob <b@x.com>Ann <c@y.com>')
        .emails,
    ).toEqual(['first.last@x.com', 'a@x.com', 'b@x.com', 'c@y.com']);
    expect(
      parseRecipients(
        `"Kim <kim@x.com>" <kim@x.com>, 'o'neil@x.com' <o'neil@x.com>, "Kim @ Sales" <k@x.com>`,
      ),
    ).toMatchObject({ emails: ['kim@x.com', "o'neil@x.com", 'k@x.com'], invalid: [] });
    // hostile: 100,000 of them, and 100,000 overrides in one word, read in one pass
    const hostile = Array.from({ length: 100_000 }, (_, i) => boxes[i % boxes.length]![0]);
    expect(splitRecipients(hostile.join('\n'), Infinity).length).toBeGreaterThan(100_000);
    expect(splitRecipients(`${'a\u202e'.repeat(100_000)}@x.com`)).toEqual([
      `${'a' + M}`.repeat(100_000) + '@x.com',
    ]);
  });

  it("the send box, the breaker's fourth round: a mark that reverses the digits after it is shown; the left-to-right wrappers are read", () => {
    const M = SHOWN_MARK;
    // H1: before, each was drawn with its digits reversed (ceo@acme-1-2.com, 7_24@y.com) and
    // mailed as read (ceo@acme-2-1.com, 24_7@y.com); H6: before, mailed to +b@y.com
    const boxes: [string, string[]][] = [
      ['ceo@acme-\u061c2-1\u061c.com', [`ceo@acme-${M}2-1.com`]],
      ['pay@\u061c24-7\u061cshop.com', [`pay@${M}24-7shop.com`]],
      ['first.\u200f1_2\u200f@x.com', [`first.${M}1_2@x.com`]],
      ['Bob <\u2068\u200f12_34@x.com\u2069>', [`Bob <${M}12_34@x.com>`]],
      ['<a@x.com>\u200b+b@y.com', [`${M}+b@y.com`]],
    ];
    for (const [box, invalid] of boxes) {
      expect(parseRecipients(box), box).toMatchObject({ emails: [], invalid });
      expect(ZRecipients.safeParse(splitRecipients(box)).success, box).toBe(false);
    }
    expect(parseRecipients('a@x.com, \u200f24_7@y.com').invalid).toEqual([`${M}24_7@y.com`]);
    for (const mark of BEFORE_DIGIT_MARKS)
      expect(
        recipientAddress(`${mark}1@x.com`),
        `U+${mark.codePointAt(0)!.toString(16)}`,
      ).toBeNull();
    // H2: the left-to-right embedding, override and isolate and the first-strong isolate around a
    // name or an address (Android's, Windows', Fluent's copies), and an RLM before a letter (Gmail's,
    // Naver's), draw in place: read, as before dc727a4c
    expect(
      parseRecipients(
        '\u202akim@naver.com\u202c, \u2068Kim Lee\u2069 <lee@x.com>, Ann <\u2068ann@x.com\u2069>, ' +
          '\u202dbob@x.com\u202c \u2066c@y.com\u2069 \u200fdan@x.com\u200f, \u200f\u2068eve@x9.com\u2069',
      ),
    ).toMatchObject({
      emails: [
        'kim@naver.com',
        'lee@x.com',
        'ann@x.com',
        'bob@x.com',
        'c@y.com',
        'dan@x.com',
        'eve@x9.com',
      ],
      invalid: [],
    });
    // hostile: 100,000 right-to-left marks and spaces before one digit, read in one pass: each
    // is shown (its next letter or digit on the line is the digit), so the box is refused
    const entries = splitRecipients(`${'\u200f '.repeat(100_000)}1@x.com`, Infinity);
    expect(entries).toEqual([`${M} `.repeat(100_000).trim(), '1@x.com']);
  });
});
