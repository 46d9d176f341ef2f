// The manual send's recipients (spec section 5, widened by the outside tester's U12), re-exported
// by letters.ts: what a mail client copies is taken. The dialog splits the box into entries and
// checks them with ZRecipients; send-letter checks the entries it is given with the same schema,
// so the server refuses exactly what the dialog refuses.
import { z } from 'zod';
import { isEmail, LETTER_LIMITS } from './limits.ts';
import { LETTER_MESSAGES } from './letter-messages.ts';

/** How many bad entries a message names; the rest are counted. */
export const RECIPIENTS_NAMED = 3;

/**
 * Entry separators: comma, semicolon, line breaks, and what a Korean or Japanese input method
 * types for them (full-width comma and semicolon, the ideographic comma, Unicode's line and
 * paragraph separators, NEL). Spaces end a word: tabs, no-break, Ogham and ideographic spaces.
 * The invisible marks (`INVISIBLE`) are neither: `invisibleMarks` reads them.
 */
const LINE_BREAKS = new Set([10, 13, 0x85, 0x2028, 0x2029]);
const SEPARATORS = new Set([44, 59, ...LINE_BREAKS, 0xff0c, 0xff1b, 0x3001]);
// the Hangul fillers and the braille blank: what a Korean paste uses for an invisible blank (BRK-2b)
const SPACES = new Set([
  32, 9, 11, 12, 0xa0, 0x1680, 0x3000, 0x202f, 0x205f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800,
]);
const isSeparator = (code: number) => SEPARATORS.has(code);
const isSpace = (code: number) => SPACES.has(code) || (code >= 0x2000 && code <= 0x200a);

/**
 * What the full-width mode of a Korean input method types for `@`, `<` and `>` (R4), read as
 * them (what NFKC does to those three; a full-width letter stays, and its address is bad).
 */
const FULL_WIDTH = /[\uff20\uff1c\uff1e]/g;
const halfWidth = (c: string) => String.fromCharCode(c.charCodeAt(0) - 0xfee0);

/**
 * A run of the invisible marks a copied page or a mail client puts in or around an address (rev-
 * break2 R3, B6): soft hyphen, the Arabic letter mark, the Mongolian vowel separator, the
 * zero-width space, ZWNJ, ZWJ, the left-to-right and right-to-left marks (Gmail and Naver put them
 * around addresses), the bidi embeddings, overrides and isolates, the word joiner and the
 * invisible operators, the deprecated format controls, and the byte order mark (a pasted file's
 * first character; inside a line the zero-width no-break space). One class, one rule
 * (`invisibleMarks`).
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]+/;
const INVISIBLE_RUNS = new RegExp(INVISIBLE.source, 'g');
/**
 * The marks of `INVISIBLE` that draw what follows them right to left (G7): the right-to-left
 * embedding, override and isolate (RLE, RLO, RLI). `ceo@`RLO`ynapmoc`PDF`.com` is drawn
 * ceo@company.com and would be mailed to ceo@ynapmoc.com, and an override reaches past spaces and
 * commas to the line's end; a run holding one is never dropped nor read as a space but always
 * shown (`SHOWN_MARK`), so its entry is bad and named. The left-to-right ones (LRE, LRO, LRI),
 * which Android, Windows and Fluent-localised apps put around copied text, never reorder an
 * address's letters and follow the in-place rule (break4 H2: refusing them refused those copies).
 */
const REORDERING = /[\u202b\u202e\u2067]/;
/**
 * The marks that reorder only the digits after them (break4 H1): the right-to-left mark, the
 * Arabic letter mark and the first-strong isolate. `ceo@acme-`ALM`2-1`ALM`.com` is drawn
 * ceo@acme-1-2.com, `RLM`24_7@y.com` 7_24@y.com; before a letter they draw in place (Gmail and
 * Naver put an RLM or LRM around addresses). A run holding one is shown when the first letter or
 * digit after it on its line is a digit (`digitNext`).
 */
const BEFORE_DIGITS = /[\u061c\u200f\u2068]/;
/** The first letter or digit of a text, or a line break. */
const LETTER_DIGIT_OR_LINE = /[\p{L}\p{N}\n\r\u0085\u2028\u2029]/u;
/**
 * For each part after a run (`text.split(INVISIBLE)`'s parts but the first): whether the first
 * letter or digit after the run on its line is a digit. One pass from the end.
 */
function digitNext(parts: string[]): boolean[] {
  const out = new Array<boolean>(parts.length);
  let later = false;
  for (let i = parts.length - 1; i >= 0; i--) {
    const found = LETTER_DIGIT_OR_LINE.exec(parts[i]!)?.[0];
    later = found === undefined ? later : /\p{N}/u.test(found);
    out[i] = later;
  }
  return out;
}
/** Where a word ends for `invisibleMarks`: a space, a separator, or one of `<>"()`. */
const endsWord = (c: string) =>
  isSpace(c.charCodeAt(0)) || isSeparator(c.charCodeAt(0)) || '<>"()'.includes(c);
/** The longest word that can be an address the box takes: `mailto:` and the longest address. */
const LONGEST_WORD = 'mailto:'.length + LETTER_LIMITS.email;

/** Where the last word of `part` begins (after its last word end, or 0). */
function wordStart(part: string): number {
  let start = part.length;
  while (start > 0 && !endsWord(part[start - 1]!)) start--;
  return start;
}

/**
 * The word `part` ends with: what follows its last word end, or with none, the word before it
 * (`before`) with `part` added; null when longer than any address.
 */
function lastWord(before: string | null, part: string, start = wordStart(part)): string | null {
  const word = start > 0 ? part.slice(start) : before === null ? null : before + part;
  return word !== null && word.length <= LONGEST_WORD ? word : null;
}

/**
 * What a run of invisible marks is shown as where the box cannot tell a break inside an address
 * from one between an address and a word (BRK-10): the entry is bad and the dialog names it with
 * this blank, so the owner sees where the hidden mark was.
 */
export const SHOWN_MARK = '\u2423';

/**
 * The invisible marks (`INVISIBLE`; B6, BRK-2). A copy carries them in two places, and what
 * stands around a run of them tells which:
 * - inside an address, where a page lets a long address wrap (`a@`ZWSP`x.com`, `a@x.`SHY`com`),
 *   around it (an LRM before it) or where a pasted file begins (a BOM): the run is dropped
 *   (`a@x.com` with one of them is the address it looks like);
 * - between words, where a chat's, a mail client's or a spreadsheet's copy joins an address to
 *   the next address or to a name (`a@x.com`ZWSP`Bob <b@y.com>`, `a@x.com`LRM`Bob`), or a name
 *   or a label to an address (`Bob`ZWSP`bob@x.com`): after a whole address (`mailto:` or not) or
 *   a bracket's `>` the run ends the word, read as a space.
 * Where the box cannot tell a wrap from a join, it guesses neither, as both guesses sent mail to
 * strangers (gluing: a@x.combob, bobbob@x.com; splitting, with the paste's entries joined by
 * marks too: `a@x.co`ZWSP`m`ZWSP`b@y.com` to a@x.co and mb@y.com, BRK-10): the run is shown as
 * `SHOWN_MARK`, a bad entry the dialog names and the server refuses. That is:
 * - after a whole address, where the word after would make it a longer one (`a@x.co␣m`: a wrap
 *   inside the last label; `a@x.com␣Bob`: a name). A `.` or `-` after the run is a wrap before
 *   the domain's next label or hyphen (`a@x.co`ZWSP`.kr`), dropped;
 * - after a whole address and a `.` or `-` (a sentence's full stop, a cell's dash), before a
 *   word (`a@x.com.␣Bob`, F6), unless that word is two small letters ending the word, a country's
 *   label after the commonest wrap (`a@x.co.`ZWSP`kr` is a@x.co.kr);
 * - inside the word before an address's `@`, between a word and what follows (`Bob␣bob@x.com`,
 *   `010-1234-5678␣kim@x.com`: a wrap inside the local part or a name, a phone or a label joined
 *   to the address, F1). The local part's surely-wraps are dropped: at its `@`, after a `.`, after
 *   `mailto:`, or with no word before (an LRM before the address). A run in a word that reaches
 *   its `@` only in a later part is shown once that part is read (`pending`).
 * Between a `<` and its `>`, in a word with no other end (`Bob <a@x.co`ZWSP`m>`), a bracket holds one
 * address and no name, so a run after the `@` can only be a wrap: dropped (F8); before the `@` the
 * rule above holds as outside (`<Bob␣bob@x.com>`, G3).
 * A run of them, of any kinds, is read as one; a run holding a mark that reorders what is drawn
 * (`REORDERING`, G7) is always shown, wherever it stands, and one holding a mark that reverses the
 * digits after it (`BEFORE_DIGITS`, H1) when a digit comes next. One pass: the word before each
 * run is carried from part to part (`lastWord`), never searched for again; each part is read up
 * to its first word end once (and `digitNext` reads each part once more, from the end).
 */
function invisibleMarks(text: string): string {
  const [first, ...parts] = text.split(INVISIBLE);
  const runs = text.match(INVISIBLE_RUNS) ?? [];
  const digits = digitNext(parts);
  const out = [first!];
  let start = wordStart(first!);
  let word = lastWord('', first!, start);
  let afterBracket = first!.endsWith('>');
  /** Whether the word before the run began right after a `<`. */
  let opened = start > 0 && first![start - 1] === '<';
  /** In `out`, a dropped run inside the current word before its `@` (F1), or -1. */
  let pending = -1;
  parts.forEach((part, index) => {
    const address = word === null ? null : word.replace(/^mailto:/i, '');
    const whole = address !== null && isEmail(address);
    let end = 0;
    while (end < part.length && !endsWord(part[end]!)) end++;
    const next = part.slice(0, end);
    // the word ends in this part, or where the next part begins (`kr`, then marks, then `<`)
    const after = parts[index + 1];
    const endsHere =
      end < part.length || after === undefined || (after !== '' && endsWord(after[0]!));
    // between a `<` and its `>` with no word end, a bracket of one address: only a wrap (F8)
    const inBracket = opened && (part[end] === '>' || (end === part.length && after?.[0] === '>'));
    if (pending >= 0 && next.includes('@')) out[pending] = SHOWN_MARK;
    if (end < part.length || next.includes('@')) pending = -1;
    let joint = '';
    // a mark that can reorder what the box draws: shown wherever it is (G7), or before digits (H1)
    const run = runs[index]!;
    if (REORDERING.test(run) || (digits[index] && BEFORE_DIGITS.test(run))) joint = SHOWN_MARK;
    // after a chip's `>`, a `-`, `+` or `_` would begin a stranger's address (H6, as G6)
    else if (afterBracket && /^[-+_]/.test(part)) joint = SHOWN_MARK;
    // in a bracket, after its `@` (before it, the F1 rule below holds as outside: G3)
    else if (inBracket && address?.includes('@')) joint = '';
    else if ((whole || afterBracket) && !/^[.-]/.test(part)) {
      // either reading is an address: neither is guessed
      joint = whole && end > 0 && end <= LONGEST_WORD && isEmail(address + next) ? SHOWN_MARK : ' ';
    } else if (address && end > 0 && !address.includes('@')) {
      // a word before the local part's rest (F1)
      if (!address.endsWith('.') && !next.startsWith('@') && !next.startsWith('.')) {
        if (next.includes('@')) joint = SHOWN_MARK;
        else if (!endsHere && pending < 0) pending = out.length;
      }
    } else if (address && end > 0 && /[.-]$/.test(address)) {
      // a whole address, a `.` or `-`, then a word (F6)
      const country = endsHere && /^[a-z]{2}$/.test(next);
      if (!country && isEmail(address.replace(/[.-]+$/, ''))) joint = SHOWN_MARK;
    }
    out.push(joint, part);
    start = wordStart(part);
    word = lastWord(joint === ' ' ? '' : word === null ? null : word + joint, part, start);
    opened = start > 0 ? part[start - 1] === '<' : joint !== ' ' && opened;
    afterBracket = part.endsWith('>');
  });
  return out.join('');
}

/**
 * The text as the box is read: full-width `＠＜＞` folded, then each run of invisible marks
 * dropped or read as a space (`invisibleMarks`).
 */
export const readableRecipients = (text: string): string =>
  invisibleMarks(text.replace(FULL_WIDTH, halfWidth));

/**
 * The one word with an `@` that is a bracket's name (R6): a handle, `@kim <kim@x.com>`, an `@`
 * first and no dot, which no address or typo of one looks like. Any other (`Ann@Home`, `a@x`,
 * `kim@naver.com.`, `(kim@naver.com)`, `a@x.com-김철수`, `Bob␣bob@x.com`) may be an address the
 * owner meant, whole, decorated or mistyped: as a name it would vanish unsaid, so it is a bad
 * entry (F3, F7).
 */
const handle = (word: string) => /^@[^\s@.<>"'()[\]\u2423]+$/.test(word);

/** Where a quote opens: at a word's start, before more of the word. */
const opensQuote = (next: number) => !isSpace(next) && !isSeparator(next) && !Number.isNaN(next);
/** Where a quote closes: its closing quote ends the word (`'O'Neil, Pat'` is one quoted name, F4). */
const closesQuote = (next: number) =>
  Number.isNaN(next) || isSpace(next) || isSeparator(next) || next === 60;

/**
 * A name that is one closed quoted string (`"Lee, Ann"`, `'O'Neil, Pat'`): its first quote
 * closes only at its end (`closesQuote`). `'Bob, c@z.com, O'Neil` or `"Lee, Ann"a@x.com` is not,
 * and its words are checked like any unquoted name's (F4, F7).
 */
function quotedName(name: string): boolean {
  const mark = name[0];
  if (name.length < 2 || (mark !== '"' && mark !== "'")) return false;
  let close = name.indexOf(mark, 1);
  while (close >= 0 && !closesQuote(name.charCodeAt(close + 1)))
    close = name.indexOf(mark, close + 1);
  return close === name.length - 1;
}

/**
 * A list's bullet or number (`-`, `*`, `•`, `◦`, `▪`, `–`, `1.`, `2)`), which Notion, Google Docs
 * and Word put before each item of a copied list: read off as a line's first word, it is neither
 * an address nor a name.
 */
const LIST_MARK =
  /^(?:[-*+\u2022\u00b7\u25e6\u25aa\u2023\u2043\u2013\u2014\u25cf\u25cb\u25a0]|\d{1,3}[.)])$/;

/** A word of a spreadsheet's name cell: no `@`, dot, bracket, quote or parenthesis. */
const NAME_CELL = /^[^@.<>"'()[\]\u2423]+$/;

/** A word that opens with a quote: a name in double quotes, or in single quotes as Outlook copies it. */
const quoted = (word: string) => word[0] === '"' || word[0] === "'";

/**
 * A spreadsheet's text prefix: Excel (and Sheets, LibreOffice) keep a cell typed `'a@x.com` as
 * text, and an export or a copy of its formula bar carries the apostrophe. A word of one
 * apostrophe and then an address is that address (the address rule itself allows an apostrophe
 * first, so `'a@x.com` would be taken as written); `'Last, First' <a@x.com>` is still a quoted
 * name, since what follows its apostrophe is no address. Read off once, by `splitRecipients`:
 * `recipientAddress` takes an entry's address as written, so it gives its own answer back
 * (`''b@x.com` in the box is `'b@x.com` in the dialog and in send-letter alike; F2).
 */
const textPrefixed = (word: string) =>
  word.length > 1 && word[0] === "'" && isEmail(word.slice(1).replace(/^mailto:/i, ''));

/**
 * The box's entries: separated by commas, semicolons (Outlook), line breaks or spaces; a
 * `Name <address>`, `Name < address >`, `"Last, First" <address>` or `'Last, First' <address>`
 * (Outlook) stays one entry. A quote (double or single) opens a quoted name only at a word's
 * start, before more of the word, and keeps its commas up to the same quote where that ends the
 * word (`'O'Neil, Pat'`: F4) or up to the line's end; one still open there was a stray quote, and
 * the line is read again from it with the quote a plain character, so it never swallows the
 * addresses after it (no quote of its kind opens again before that line's end, so a line is read
 * at most three times). A `<` never closed before the entry's end (a separator) is a stray one
 * alike: the words it took are read again with it a plain character, and no `<` before that
 * separator opens a bracket then (none could close), so each part is read at most twice. Of the
 * words with an `@` that are no address, only a handle (`@kim <kim@x.com>`) right before a
 * bracket is its name; any other (`a@x`, `kim@naver.com.`, `Ann@Home`) is an entry of its own,
 * bad (F3). Words before an address with no address of their own are one entry ("Ann Smith"),
 * which is bad, but for a spreadsheet row's name cells before a tab and its address (`NAME_CELL`).
 * A list's bullet or number as a line's first word is read off (`LIST_MARK`), and a bracket's
 * `>` (after an `@`) ends its word (chips with nothing between them) unless a `-`, `+` or `_`
 * follows (G6). Full-width `＠＜＞` are read as `@<>` and invisible marks dropped or read as a
 * space first (`readableRecipients`). It stops after `limit` entries.
 */
export function splitRecipients(
  raw: string,
  limit: number = LETTER_LIMITS.recipientEntries + 1,
): string[] {
  const text = readableRecipients(raw);
  const entries: string[] = [];
  let words: string[] = [];
  let start = -1;
  /** Where the open quoted name began, or -1. */
  let quote = -1;
  /** Before these indexes a double, a single quote opens no name: one was stray on that line. */
  const plainQuotes = [-1, -1];
  /** An angle bracket opened and not closed yet: the words up to its `>` are one entry. */
  let bracket = false;
  /** The open bracket's word: where it ends and begins, and how many words were before it. */
  let bracketEnd = -1;
  let bracketStart = -1;
  let bracketWords = 0;
  /** Before this index a `<` opens no bracket: one opened there was never closed. */
  let plainUntil = -1;
  /** The index in entries of the `@` word just read, while nothing else has come after it. */
  let atEntry = -1;
  /** Whether the next word is its line's first. */
  let lineStart = true;
  /** How many entries there were when this line began. */
  let lineEntries = 0;
  /** Whether a tab came since the last word, and before the word being read. */
  let tab = false;
  let tabBefore = false;
  /** In the word being read: a `<` that opens a bracket, and an `@` after it (a chip's end). */
  let chipOpen = false;
  let chipAt = false;
  const endName = () => {
    if (words.length > 0) entries.push(words.join(' '));
    words = [];
    bracket = false;
  };
  const endWord = (end: number) => {
    if (start < 0) return;
    const written = text.slice(start, end);
    const word = textPrefixed(written) ? written.slice(1) : written;
    const at = start;
    start = -1;
    const first = lineStart;
    lineStart = false;
    // a list's bullet or number at a line's start, as a document copies a list (F5)
    if (first && LIST_MARK.test(word)) return;
    const opens = word.lastIndexOf('<');
    const pending = atEntry;
    atEntry = -1;
    if (opens >= 0 && pending >= 0 && pending === entries.length - 1 && words.length === 0) {
      // a handle before the bracket is its name; any other `@` word stays a bad entry (F3)
      if (handle(entries[pending]!)) words.push(entries.pop()!);
    }
    if (bracket) {
      words.push(word);
      if (word.includes('>')) endName();
    } else if (word.length > 1 && quoted(word) && word.endsWith(word[0]!)) words.push(word);
    else if (opens >= 0 && !word.includes('>', opens) && at >= plainUntil) {
      bracketWords = words.length;
      bracketEnd = end;
      bracketStart = at;
      words.push(word);
      bracket = true;
    } else if (quoted(word)) words.push(word);
    else if (opens >= 0 && at >= plainUntil) {
      // an address in brackets ends the entry; the words before it are its name
      entries.push([...words, word].join(' '));
      words = [];
    } else if (word.includes('@')) {
      // a spreadsheet row's name cells, then a tab and the address (`Bob<TAB>bob@x.com`): the
      // name is the address's; a cell that could be a mistyped address (a dot, an `@`) is not (F5)
      if (tabBefore && entries.length === lineEntries && words.every((w) => NAME_CELL.test(w)))
        words = [];
      endName();
      entries.push(word);
      atEntry = entries.length - 1;
    } else words.push(word);
  };
  /** Whether the apostrophe at `i` starts a word that is a spreadsheet's text prefix and an address. */
  const prefixAt = (i: number) => {
    let end = i + 1;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (isSpace(code) || isSeparator(code)) break;
      end++;
    }
    return textPrefixed(text.slice(i, end));
  };
  // the text's end is read as a line's end
  for (let i = 0; i <= text.length && entries.length < limit; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 10;
    if (quote >= 0) {
      if (code === text.charCodeAt(quote) && closesQuote(text.charCodeAt(i + 1))) quote = -1;
      else if (LINE_BREAKS.has(code)) {
        // a stray quote: on from the character after it, the word still starting at the quote;
        // no quote of its kind closes before this line's end, so none opens there now
        plainQuotes[text.charCodeAt(quote) === 34 ? 0 : 1] = i;
        i = quote;
        quote = -1;
      }
    } else if (isSeparator(code)) {
      endWord(i);
      if (bracket && words.length > bracketWords + 1) {
        // a stray `<` took the words after it: they are read again, it a plain character
        words.length = bracketWords;
        bracket = false;
        plainUntil = i;
        start = bracketStart;
        chipOpen = false;
        chipAt = false;
        i = bracketEnd - 1;
        continue;
      }
      endName();
      atEntry = -1;
      if (LINE_BREAKS.has(code)) {
        lineStart = true;
        lineEntries = entries.length;
      }
    } else if (isSpace(code)) {
      endWord(i);
      if (code === 9) tab = true;
    } else {
      if (
        (code === 34 || code === 39) &&
        start < 0 &&
        i >= plainQuotes[code === 34 ? 0 : 1]! &&
        opensQuote(text.charCodeAt(i + 1)) &&
        !(code === 39 && prefixAt(i))
      )
        quote = i;
      if (start < 0) {
        start = i;
        tabBefore = tab;
        tab = false;
        chipOpen = false;
        chipAt = false;
      }
      if (code === 60 && i >= plainUntil) chipOpen = true;
      else if (code === 64) chipAt = chipOpen;
      else if (code === 62 && chipAt && i + 1 < text.length && !isSpace(text.charCodeAt(i + 1))) {
        // a chip's `<address>` with more right after it (`Bob <b@x.com>Ann <a@y.com>`): nothing
        // after its `>` belongs to that address, so the word ends there (F5); a `-`, `+` or `_`
        // glued after it is likelier a separator than an address's first letter, so the word
        // runs on and is named (`<a@x.com>-b@y.com`, G6)
        const after = text.charCodeAt(i + 1);
        if (!isSeparator(after) && after !== 45 && after !== 43 && after !== 95) endWord(i + 1);
      }
    }
  }
  return entries.slice(0, limit);
}

/**
 * The address of one entry (`address`, `<address>`, `Name <address>`, `Name < address >`, each
 * maybe `mailto:` as a copied link carries it), or null.
 */
export function recipientAddress(entry: string): string | null {
  if (entry.length > LETTER_LIMITS.recipientEntry * 2) return null;
  const value = readableRecipients(entry).trim();
  if (value.length > LETTER_LIMITS.recipientEntry) return null;
  const named = /^(?:"[^"]*"\s*|'[^']*'\s*|[^<>]*)<([^<>]*)>$/.exec(value);
  const given = (named ? named[1]! : value).trim();
  // an entry's address as written: the box's text prefix was read off once, by the split (F2)
  const address = given.replace(/^mailto:/i, '');
  // a shown mark anywhere, a quoted name's too: a break the box could not read, or a mark that
  // reorders what the box draws (G7)
  if (value.includes(SHOWN_MARK)) return null;
  if (address.length > LETTER_LIMITS.email || !isEmail(address)) return null;
  // a name that is not one closed quoted string, holding an `@` word other than a handle or the
  // address itself (`a@x.com<b@y.com>`, `kim@naver.com. <c@z.com>`, `Bob␣bob@x.com <b@y.com>`),
  // or a shown mark: maybe an address the owner meant, so the entry is bad, not sent to the
  // bracket's address alone (BRK-2b, F3, F7)
  const name = named ? value.slice(0, value.lastIndexOf('<')).trim() : '';
  const other = (w: string) =>
    w.includes(SHOWN_MARK) ||
    (w.includes('@') &&
      !handle(w) &&
      w.replace(/^mailto:/i, '').toLowerCase() !== address.toLowerCase());
  if (name && !quotedName(name) && name.split(/\s+/).some(other)) return null;
  // a quoted name holding an address other than the entry's own, bare or in brackets: a quote
  // that opened a word and closed at a later word's end took whole entries into one "name"
  // (`"Ann"ann@x.com, "Bob" <b@y.com>`, `"Kim <kim@x.com>, Lee" <lee@y.com>`), or the name is an
  // address the owner meant; either way bad, never dropped unsaid (G1). A name that is the
  // address itself (`"ann@x.com" <ann@x.com>`, `"Kim <kim@x.com>" <kim@x.com>`) stays a name.
  const word = (w: string) => w.replace(/^'+|[',;]+$/g, '');
  if (name && name.split(/[\s<>()"]+/).some((w) => !/^@*$/.test(w) && other(word(w)))) return null;
  return address.toLowerCase();
}

/**
 * A list of entries to the addresses to send to: each entry an address (`recipientAddress`),
 * duplicates in any case merged, at most 100 after merging; more than 1,000 entries are refused
 * whole, unread (`tooManyEntries`). A bad entry's issue carries the bad entries
 * (`params.invalid`), which the dialog names; the message names the first few too.
 */
export const ZRecipients = z
  .array(z.string({ error: LETTER_MESSAGES.emailInvalid }), {
    error: LETTER_MESSAGES.emailInvalid,
  })
  .min(1, { error: LETTER_MESSAGES.emailInvalid })
  .max(LETTER_LIMITS.recipientEntries, { error: LETTER_MESSAGES.tooManyEntries })
  .transform((entries, ctx) => {
    const invalid: string[] = [];
    const emails = new Set<string>();
    for (const entry of entries) {
      const address = recipientAddress(entry);
      if (address === null) invalid.push(entry);
      else emails.add(address);
    }
    if (invalid.length > 0) {
      const { named, more } = namedEntries(invalid);
      const list = named.map((e) => JSON.stringify(e)).join(', ');
      ctx.addIssue({
        code: 'custom',
        message: `${LETTER_MESSAGES.emailInvalid}: ${list}${more > 0 ? ` and ${more} more` : ''}`,
        params: { invalid },
      });
      return z.NEVER;
    }
    if (emails.size > LETTER_LIMITS.manualMax) {
      ctx.addIssue({ code: 'custom', message: LETTER_MESSAGES.tooManyAddresses });
      return z.NEVER;
    }
    return [...emails];
  });

/**
 * An entry as a message shows it: at most 40 characters. A long one is cut around its first shown
 * mark if the first 39 would leave it out, so the owner sees where the hidden mark is (F9).
 */
export function shortEntry(entry: string): string {
  if (entry.length <= 40) return entry;
  const mark = entry.indexOf(SHOWN_MARK);
  if (mark < 39) return `${entry.slice(0, 39)}…`;
  if (mark >= entry.length - 20) return `…${entry.slice(-39)}`;
  return `…${entry.slice(mark - 19, mark + 19)}…`;
}

/**
 * What a message names of the bad entries: the first RECIPIENTS_NAMED, each as `shortEntry`
 * shows it, and how many more there are (the server's English and the dialog's texts alike).
 */
export const namedEntries = (invalid: readonly string[]): { named: string[]; more: number } => ({
  named: invalid.slice(0, RECIPIENTS_NAMED).map(shortEntry),
  more: Math.max(0, invalid.length - RECIPIENTS_NAMED),
});

export interface TRecipientsRead {
  /** The addresses to send to, lower case, each once. */
  emails: string[];
  /** Entries that repeat an address already in the list (in any case). */
  duplicates: number;
  /** The entries that are not addresses, in the box's order. */
  invalid: string[];
  /** The first problem in the spec's words (`LETTER_MESSAGES`), or null. */
  error: string | null;
}

/** The manual send's box read as the dialog shows it, through ZRecipients. */
export function parseRecipients(text: string): TRecipientsRead {
  const entries = splitRecipients(text);
  if (entries.length === 0) return { emails: [], duplicates: 0, invalid: [], error: null };
  const parsed = ZRecipients.safeParse(entries);
  if (parsed.success) {
    return {
      emails: parsed.data,
      duplicates: entries.length - parsed.data.length,
      invalid: [],
      error: null,
    };
  }
  const issue = parsed.error.issues[0]!;
  const invalid = (issue.code === 'custom' && (issue.params?.invalid as string[])) || [];
  const error = invalid.length > 0 ? LETTER_MESSAGES.emailInvalid : issue.message;
  return { emails: [], duplicates: 0, invalid, error };
}
