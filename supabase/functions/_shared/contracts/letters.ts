// Letters and audience (issue 11): the payloads of web-to-template, verify-brunch-id,
// save-letter, send-letter and publish-letter, the letter's block model, and the rules the
// dashboard checks before sending (the same functions, so both sides give the same messages).
// Shared by the edge functions and the dashboard (as @reaction-blocks/contracts/letters).
import { z } from 'zod';
import { emailAddress } from './email.ts';
import { LANGUAGES, type TLetterType } from './enums.ts';
import { BLOCK_LIMITS, isEmail, LETTER_LIMITS } from './limits.ts';
import { safeHref } from './html.ts';
import { LETTER_MESSAGES } from './letter-messages.ts';

export { LETTER_TYPES, type TLetterType } from './enums.ts';
export { isEmail, LETTER_LIMITS } from './limits.ts';
export { LETTER_MESSAGES } from './letter-messages.ts';
export * from './audience.ts';

export const LETTER_MODES = ['notion', 'typedream', 'brunch'] as const;
export type TLetterMode = (typeof LETTER_MODES)[number];

export const MODE_OF_TYPE: Record<TLetterType, TLetterMode> = {
  notion_letter: 'notion',
  typedream_letter: 'typedream',
  brunch_letter: 'brunch',
};

/**
 * Why a letter's mail was skipped (`deliveries.reason`, written by prepare_letter_jobs), which the
 * history says in the reader's language; a failed mail's reason is the provider's own answer.
 */
export const DELIVERY_SKIP_REASONS = {
  deleted: 'the send was deleted',
  unsubscribed: 'the address unsubscribed',
  /** sends before 2026-11-28 only: a suppressed address now bounces unmailed (docs/security.md) */
  suppressed: 'the address is suppressed (bounce or complaint)',
  suspended: 'the sender is suspended (bounces or complaints)',
  senderNotVerified: 'the sender address is no longer verified',
  /** a letter a form sends by itself, past the month's quota (reserve_trigger_letter) */
  quota: 'the monthly email quota is used up',
} as const;

/** The public brunch profile link prefix (brunch_verify_modal.link_error without it). */
export const BRUNCH_PROFILE_PREFIX = 'https://brunch.co.kr/@';

const text = (max: number) =>
  z.string({ error: 'Must be text' }).max(max, { error: LETTER_MESSAGES.tooLong });

/** An absolute link a letter may carry: http, https or mailto (the sanitiser's rule). */
export const isLetterLink = (value: string): boolean => safeHref(value) !== null;

const link = text(LETTER_LIMITS.url).refine((v) => isLetterLink(v), {
  error: LETTER_MESSAGES.invalidUrl,
});
/**
 * An image address a letter may show: an absolute http or https URL without a user name or
 * password (a mail would hand them to every reader, and mail clients warn on them). The one rule
 * for an image block's and the image button's `src`; the dashboard's image button dialog asks it too.
 */
export const isLetterImageSrc = (value: string): boolean => {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && !url.username && !url.password;
  } catch {
    return false;
  }
};

const imageSrc = text(LETTER_LIMITS.url).refine(isLetterImageSrc, {
  error: LETTER_MESSAGES.invalidUrl,
});

// ---------------------------------------------------------------------------------------------
// The block model: what a page becomes, what the editor deletes rows from, what the server
// renders into the 600 px table. Text is text: marks and links are data, never HTML.

export const MARKS = ['b', 'i', 'u', 's', 'code'] as const;
export type TMark = (typeof MARKS)[number];

export const ZSpan = z.strictObject({
  text: text(LETTER_LIMITS.spanText),
  marks: z.array(z.enum(MARKS)).max(MARKS.length).optional(),
  href: link.optional(),
});
export type TSpan = z.infer<typeof ZSpan>;

const spans = z.array(ZSpan).max(LETTER_LIMITS.spansPerBlock);
const blockId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Invalid id' });

/**
 * A list's items are flat: an item of the list itself is its spans; a nested one says its
 * `level` (1 = inside the item before it) and whether its own sub-list is `ordered`. Flat, so a
 * payload cannot nest deeper than the schema reads, and a list saved before nesting still parses.
 */
export const ZNestedItem = z.strictObject({
  spans,
  level: z.int().min(1).max(LETTER_LIMITS.listDepth),
  ordered: z.boolean(),
});
export type TNestedItem = z.infer<typeof ZNestedItem>;
export type TListItem = TSpan[] | TNestedItem;
export const itemSpans = (item: TListItem): TSpan[] => (Array.isArray(item) ? item : item.spans);

/** A list as a tree, for the renderers: each item with the lists nested inside it. */
export interface TListTree {
  ordered: boolean;
  items: Array<{ spans: TSpan[]; lists: TListTree[] }>;
}

/**
 * The flat items as nested lists. An item deeper than the one before it by more than one level
 * (or with nothing above it to nest in) nests one level below that item; a nested item of the
 * other kind than its neighbour at that level starts a sub-list of its own.
 */
export function listTree(list: { ordered: boolean; items: TListItem[] }): TListTree {
  const root: TListTree = { ordered: list.ordered, items: [] };
  const open: TListTree[] = [root]; // open[level]: the list items of that level go to
  for (const item of list.items) {
    const nested = Array.isArray(item) ? null : item;
    const level = Math.min(nested?.level ?? 0, root.items.length ? open.length : 0);
    open.length = level + 1;
    let into = open[level];
    if (level > 0 && (!into || into.ordered !== nested!.ordered)) {
      into = { ordered: nested!.ordered, items: [] };
      open[level - 1]!.items.at(-1)!.lists.push(into);
      open[level] = into;
    }
    into!.items.push({ spans: itemSpans(item), lists: [] });
  }
  return root;
}

export const ZLetterBlock = z.discriminatedUnion('type', [
  z.strictObject({
    id: blockId,
    type: z.literal('heading'),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    spans,
  }),
  z.strictObject({ id: blockId, type: z.literal('paragraph'), spans }),
  z.strictObject({
    id: blockId,
    type: z.literal('list'),
    ordered: z.boolean(),
    /** every item, nested ones too (ZNestedItem) */
    items: z.array(z.union([spans, ZNestedItem])).max(LETTER_LIMITS.listItems),
  }),
  z.strictObject({ id: blockId, type: z.literal('quote'), spans }),
  z.strictObject({
    id: blockId,
    type: z.literal('callout'),
    icon: text(16).optional(),
    spans,
  }),
  z.strictObject({
    id: blockId,
    type: z.literal('image'),
    src: imageSrc,
    alt: text(500).optional(),
    caption: spans.optional(),
    href: link.optional(),
  }),
  z.strictObject({ id: blockId, type: z.literal('divider') }),
  z.strictObject({
    id: blockId,
    type: z.literal('code'),
    text: text(LETTER_LIMITS.code),
    language: text(40).optional(),
  }),
  /** Rows of cells, each cell spans; `header`: the first row heads the columns. */
  z.strictObject({
    id: blockId,
    type: z.literal('table'),
    header: z.boolean(),
    rows: z.array(z.array(spans).max(LETTER_LIMITS.tableCells)).max(LETTER_LIMITS.tableRows),
  }),
]);
export type TLetterBlock = z.infer<typeof ZLetterBlock>;

export const ZLetterModel = z
  .strictObject({
    version: z.literal(1),
    source: z.strictObject({ mode: z.enum(LETTER_MODES), url: text(LETTER_LIMITS.url) }).nullable(),
    blocks: z.array(ZLetterBlock).max(LETTER_LIMITS.blocks),
    /** The call-to-action button under the letter. */
    cta: z
      .strictObject({
        text: text(LETTER_LIMITS.ctaText).min(1, { error: 'Required' }),
        link,
      })
      .nullable(),
    /** An image used as a button (a linked image under the letter). */
    imageButton: z.strictObject({ src: imageSrc, link }).nullable(),
  })
  // the whole letter, not only each part: 400 blocks of 300 spans could otherwise be huge
  .refine((m) => JSON.stringify(m).length <= LETTER_LIMITS.modelChars, {
    error: LETTER_MESSAGES.tooLong,
  });
export type TLetterModel = z.infer<typeof ZLetterModel>;

/**
 * What a loaded page had that its letter does not carry (web-to-template's `leftOut`, which the
 * workspace says under the page address): the kinds of parts with no mail equivalent, counted,
 * and `cutAt` when the page was longer than a letter holds (LETTER_LIMITS.blocks) or than the
 * reads allowed for one load, the number of parts kept.
 */
export const LEFT_OUT_KINDS = [
  'subpage',
  'database',
  'embed',
  'video',
  'audio',
  'file',
  'other',
] as const;
export type TLeftOutKind = (typeof LEFT_OUT_KINDS)[number];
export interface TLeftOut {
  kinds: Partial<Record<TLeftOutKind, number>>;
  cutAt: number | null;
}

export const emptyLetter = (): TLetterModel => ({
  version: 1,
  source: null,
  blocks: [],
  cta: null,
  imageButton: null,
});

// ---------------------------------------------------------------------------------------------
// Page URLs (spec section 5, Letters)

/**
 * The page address of a mode, or the spec's message for it. Brunch pages must be articles of the
 * verified profile (`https://brunch.co.kr/@writer/123` under `https://brunch.co.kr/@writer`).
 */
export function checkPageUrl(
  mode: TLetterMode,
  raw: string,
  brunchProfile?: string | null,
): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { error: LETTER_MESSAGES.invalidAddress };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: LETTER_MESSAGES.invalidAddress };
  }
  // pages are fetched over https only; an http link to them is the same page
  url.protocol = 'https:';
  url.hash = '';
  const host = url.hostname.toLowerCase();
  if (mode === 'notion') {
    if (!host.endsWith('.notion.site')) return { error: LETTER_MESSAGES.notionError };
  } else if (mode === 'typedream') {
    if (!host.endsWith('.typedream.app')) return { error: LETTER_MESSAGES.typedreamError };
  } else {
    if (!brunchProfile) return { error: LETTER_MESSAGES.verifyBrunchFirst };
    const profile = new URL(brunchProfile);
    const writer = decodeURIComponent(profile.pathname.replace(/^\/@/, '').replace(/\/.*$/, ''));
    if (host !== 'brunch.co.kr') return { error: LETTER_MESSAGES.writerArticle(writer) };
    const [first, article, ...rest] = url.pathname.split('/').filter(Boolean);
    if (!first?.startsWith('@') || !article || rest.length > 0 || !/^\d+$/.test(article)) {
      return { error: LETTER_MESSAGES.writerArticle(writer) };
    }
    if (decodeURIComponent(first.slice(1)).toLowerCase() !== writer.toLowerCase()) {
      return { error: LETTER_MESSAGES.notYourArticle };
    }
  }
  return { url };
}

/** A brunch profile link as stored (`https://brunch.co.kr/@writer`), or the spec's message. */
export function normalizeBrunchProfile(raw: string): { url: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { error: LETTER_MESSAGES.brunchLinkError };
  }
  const [first, ...rest] = url.pathname.split('/').filter(Boolean);
  if (
    !raw.trim().startsWith(BRUNCH_PROFILE_PREFIX) ||
    url.hostname !== 'brunch.co.kr' ||
    !first?.startsWith('@') ||
    first.length < 2 ||
    rest.length > 0
  ) {
    return { error: LETTER_MESSAGES.brunchLinkError };
  }
  return { url: `https://brunch.co.kr/${first}` };
}

// ---------------------------------------------------------------------------------------------
// Calls

export const ZWebToTemplate = z
  .strictObject({
    blockId: z.uuid({ error: 'Invalid id' }),
    mode: z.enum(LETTER_MODES, { error: LETTER_MESSAGES.notSupportedMode }),
    pageUrl: text(LETTER_LIMITS.url).optional(),
    /** Load the operator's sample page of the mode instead (the load-sample button). */
    sample: z.boolean().optional(),
  })
  .refine((v) => v.sample === true || (v.pageUrl ?? '').trim() !== '', {
    error: LETTER_MESSAGES.invalidAddress,
  });
export type TWebToTemplate = z.infer<typeof ZWebToTemplate>;

const senderAddress = z
  .string({ error: LETTER_MESSAGES.invalidEmail })
  .trim()
  .max(60, { error: LETTER_MESSAGES.tooLong })
  .pipe(emailAddress(LETTER_MESSAGES.invalidEmail))
  .transform((v) => v.toLowerCase());

export const ZVerifyBrunchId = z.strictObject({
  blockId: z.uuid({ error: 'Invalid id' }),
  brunchProfilePage: text(500),
  email: senderAddress,
});
export type TVerifyBrunchId = z.infer<typeof ZVerifyBrunchId>;

export const ZSaveLetter = z.strictObject({
  blockId: z.uuid({ error: 'Invalid id' }),
  name: text(BLOCK_LIMITS.blockName).optional(),
  /** The block's language: the mail's footer and <html lang> (the other blocks' Language). */
  language: z.enum(LANGUAGES, { error: 'Language must be en or ko' }).optional(),
  letter: z.strictObject({
    title: text(LETTER_LIMITS.title).refine((v) => !/[\r\n]/.test(v), {
      error: LETTER_MESSAGES.subjectLineBreak,
    }),
    /** A verified sender email of the owner, or '' for none yet. */
    mailFrom: z.union([z.literal(''), senderAddress]),
    mailName: text(LETTER_LIMITS.senderName),
    pageUrl: text(LETTER_LIMITS.url),
    model: ZLetterModel,
  }),
});
export type TSaveLetter = z.infer<typeof ZSaveLetter>;

// ---------------------------------------------------------------------------------------------
// The manual send's recipients (spec section 5, widened by the outside tester's U12): what a mail
// client copies is taken. The dialog splits the box into entries and checks them with
// ZRecipients; send-letter checks the entries it is given with the same schema, so the server
// refuses exactly what the dialog refuses.

/** How many bad entries a message names; the rest are counted. */
export const RECIPIENTS_NAMED = 3;

/**
 * Entry separators: comma, semicolon, line breaks, and what a Korean or Japanese input method
 * types for them (full-width comma and semicolon, the ideographic comma, Unicode's line and
 * paragraph separators, NEL). Spaces end a word: tabs, no-break, Ogham and ideographic spaces,
 * and the invisible ones a copied web page carries between words (zero-width space, byte order
 * mark).
 */
const LINE_BREAKS = new Set([10, 13, 0x85, 0x2028, 0x2029]);
const SEPARATORS = new Set([44, 59, ...LINE_BREAKS, 0xff0c, 0xff1b, 0x3001]);
const SPACES = new Set([32, 9, 11, 12, 0xa0, 0x1680, 0x3000, 0x200b, 0xfeff, 0x202f, 0x205f]);
const isSeparator = (code: number) => SEPARATORS.has(code);
const isSpace = (code: number) => SPACES.has(code) || (code >= 0x2000 && code <= 0x200a);

/**
 * Invisible format characters a copied page or a mail client puts in or around an address (rev-
 * break2 R3): soft hyphen, the Arabic letter mark, the Mongolian vowel separator, ZWNJ, ZWJ, the
 * left-to-right and right-to-left marks (Gmail and Naver put them around addresses), the bidi
 * embeddings, overrides and isolates, the word joiner and the invisible operators. They are
 * dropped: `a@x.com` with one of them is the address it looks like.
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200c-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f]/g;
/**
 * What the full-width mode of a Korean input method types for `@`, `<` and `>` (R4), read as
 * them (what NFKC does to those three; a full-width letter stays, and its address is bad).
 */
const FULL_WIDTH = /[\uff20\uff1c\uff1e]/g;
const halfWidth = (c: string) => String.fromCharCode(c.charCodeAt(0) - 0xfee0);

/** The text as the box is read: invisible format characters dropped, full-width `＠＜＞` folded. */
export const readableRecipients = (text: string): string =>
  text.replace(INVISIBLE, '').replace(FULL_WIDTH, halfWidth);

/** A word that opens with a quote: a name in double quotes, or in single quotes as Outlook copies it. */
const quoted = (word: string) => word[0] === '"' || word[0] === "'";

/**
 * The box's entries: separated by commas, semicolons (Outlook), line breaks or spaces; a
 * `Name <address>`, `Name < address >`, `"Last, First" <address>` or `'Last, First' <address>`
 * (Outlook) stays one entry. A quote (double or single) opens a quoted name only at a word's
 * start and keeps its commas up to the same quote or the line's end; one still open there was a
 * stray quote, and the line is read again from it with the quote a plain character, so it never
 * swallows the addresses after it (no such quote follows it on its line, so a line is read at
 * most three times). A `<` never closed before the entry's end (a separator) is a stray one
 * alike: the words it took are read again with it a plain character, and no `<` before that
 * separator opens a bracket then (none could close), so each part is read at most twice. A word
 * with an `@` that is not an address, right before a bracket, is the bracket's name
 * (`Ann@Home <a@x.com>`, `@kim <kim@x.com>`). Words before an address with no address of their
 * own are one entry ("Ann Smith"), which is bad. Invisible format characters are dropped and
 * full-width `＠＜＞` read as `@<>` first (`readableRecipients`). It stops after `limit` entries.
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
  /** An angle bracket opened and not closed yet: the words up to its `>` are one entry. */
  let bracket = false;
  /** The open bracket's word: where it ends, and how many words were before it. */
  let bracketEnd = -1;
  let bracketWords = 0;
  /** Before this index a `<` opens no bracket: one opened there was never closed. */
  let plainUntil = -1;
  /** The index in entries of the `@` word just read, while nothing else has come after it. */
  let atEntry = -1;
  const endName = () => {
    if (words.length > 0) entries.push(words.join(' '));
    words = [];
    bracket = false;
  };
  const endWord = (end: number) => {
    if (start < 0) return;
    const word = text.slice(start, end);
    const at = start;
    start = -1;
    const opens = word.lastIndexOf('<');
    const pending = atEntry;
    atEntry = -1;
    if (opens >= 0 && pending >= 0 && pending === entries.length - 1 && words.length === 0) {
      // a name with an `@` (not an address itself) before the bracket: the bracket's name
      const name = entries[pending]!;
      if (recipientAddress(name) === null) words.push(entries.pop()!);
    }
    if (bracket) {
      words.push(word);
      if (word.includes('>')) endName();
    } else if (word.length > 1 && quoted(word) && word.endsWith(word[0]!)) words.push(word);
    else if (opens >= 0 && !word.includes('>', opens) && at >= plainUntil) {
      bracketWords = words.length;
      bracketEnd = end;
      words.push(word);
      bracket = true;
    } else if (quoted(word)) words.push(word);
    else if (opens >= 0 && at >= plainUntil) {
      // an address in brackets ends the entry; the words before it are its name
      entries.push([...words, word].join(' '));
      words = [];
    } else if (word.includes('@')) {
      endName();
      entries.push(word);
      atEntry = entries.length - 1;
    } else words.push(word);
  };
  // the text's end is read as a line's end
  for (let i = 0; i <= text.length && entries.length < limit; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 10;
    if (quote >= 0) {
      if (code === text.charCodeAt(quote)) quote = -1;
      else if (LINE_BREAKS.has(code)) {
        // a stray quote: on from the character after it, the word still starting at the quote
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
        start = bracketEnd - 1;
        while (
          start > 0 &&
          !isSpace(text.charCodeAt(start - 1)) &&
          !isSeparator(text.charCodeAt(start - 1))
        )
          start--;
        i = bracketEnd - 1;
        continue;
      }
      endName();
      atEntry = -1;
    } else if (isSpace(code)) endWord(i);
    else {
      if ((code === 34 || code === 39) && start < 0) quote = i;
      if (start < 0) start = i;
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
  const address = (named ? named[1]! : value).trim().replace(/^mailto:/i, '');
  return address.length <= LETTER_LIMITS.email && isEmail(address) ? address.toLowerCase() : null;
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

/** An entry as a message shows it: at most 40 characters. */
export const shortEntry = (entry: string): string =>
  entry.length > 40 ? `${entry.slice(0, 39)}…` : entry;

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

export const ZSendLetter = z.strictObject({
  blockId: z.uuid({ error: 'Invalid id' }),
  /** Entries as ZRecipients takes them; the dialog sends the addresses it read. */
  emailList: ZRecipients,
  registerAudience: z.boolean().default(false),
});
export type TSendLetter = z.infer<typeof ZSendLetter>;

export const ZPublishLetter = z.strictObject({
  blockId: z.uuid({ error: 'Invalid id' }),
  /** An audience group; `activated` is every active member. */
  group: text(LETTER_LIMITS.group).min(1, { error: 'Required' }),
});
export type TPublishLetter = z.infer<typeof ZPublishLetter>;
