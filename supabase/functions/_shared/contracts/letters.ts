// Letters and audience (issue 11): the payloads of web-to-template, verify-brunch-id,
// save-letter, send-letter and publish-letter, the letter's block model, and the rules the
// dashboard checks before sending (the same functions, so both sides give the same messages).
// Shared by the edge functions and the dashboard (as @reaction-blocks/contracts/letters).
import { z } from 'zod';
import { emailAddress } from './email.ts';
import { LANGUAGES, type TLetterType } from './enums.ts';
import { BLOCK_LIMITS, LETTER_LIMITS } from './limits.ts';
import { safeHref } from './html.ts';
import { LETTER_MESSAGES } from './letter-messages.ts';
import { ZRecipients } from './recipients.ts';

export { LETTER_TYPES, type TLetterType } from './enums.ts';
export { isEmail, LETTER_LIMITS } from './limits.ts';
export { LETTER_MESSAGES } from './letter-messages.ts';
export * from './audience.ts';
export * from './recipients.ts';

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
  /** the number of a numbered list's first item when it is not 1 (the list's `start`) */
  start?: number;
  /**
   * How many levels in the whole list is drawn: a list whose every item is nested (the child
   * items of a Notion item whose long text ended its list, which go on after that text).
   */
  indent?: number;
  items: Array<{ spans: TSpan[]; lists: TListTree[] }>;
}

/**
 * The flat items as nested lists. An item deeper than the one before it by more than one level
 * nests one level below that item; a nested item of the other kind than its neighbour at that
 * level starts a sub-list of its own. A list whose every item is nested is drawn as many levels
 * in as its shallowest item (`indent`), its items' levels counted from there; in a list with an
 * item of its own, a first nested item has nothing to nest in and is drawn as the list's own.
 */
export function listTree(list: {
  ordered: boolean;
  start?: number;
  items: TListItem[];
}): TListTree {
  const levels = list.items.map((item) => (Array.isArray(item) ? 0 : item.level));
  const indent = levels.length ? Math.min(...levels) : 0;
  const root: TListTree = {
    ordered: list.ordered,
    ...(list.ordered && list.start ? { start: list.start } : {}),
    ...(indent ? { indent } : {}),
    items: [],
  };
  const open: TListTree[] = [root]; // open[level]: the list items of that level go to
  for (const item of list.items) {
    const nested = Array.isArray(item) ? null : item;
    const deep = Math.max(0, (nested?.level ?? 0) - indent);
    const level = Math.min(deep, root.items.length ? open.length : 0);
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
    /**
     * A numbered list's first number when it goes on from a list before it (a page's list that
     * the rest of a long item's text interrupted); 1 when not said.
     */
    start: z
      .int()
      .min(1)
      .max(LETTER_LIMITS.blocks * LETTER_LIMITS.listItems)
      .optional(),
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
 * `cutAt` when the page was longer than a letter holds (LETTER_LIMITS.blocks, or the mail's
 * size: mailHtml, mailText, modelChars) or than the reads allowed for one load, the number of
 * parts kept, and `shortened`, the parts whose end was left out.
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
  /**
   * Parts kept in part, when any: an image caption or a table cell of more than
   * LETTER_LIMITS.spansPerBlock spans, a table of more than tableRows rows or tableCells columns
   * (none of them can go on in another part of its kind).
   */
  shortened?: number;
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
