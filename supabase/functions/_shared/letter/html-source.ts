// Server-rendered pages (Brunch articles, Typedream pages) as the letter's block model. The page
// is parsed with parse5 (the WHATWG algorithm browsers use), never with regular expressions; the
// article's container is found, and its headings, paragraphs, lists, quotes, images, rules and
// code become blocks. Scripts, styles, forms, frames and everything else are simply never read:
// only text, links (absolute http/https/mailto) and image addresses leave this module.
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { NON_PROSE_TAGS } from '@reaction-blocks/contracts/html';
import type { TLetterBlock, TListItem, TMark, TSpan } from '@reaction-blocks/contracts/letters';
import {
  clip,
  codePieces,
  inParts,
  LETTER_LIMITS,
  spanBlocks,
  makeId,
  PageBlocks,
  tidySpans,
  type TLeftOut,
  type TLeftOutKind,
} from './model.ts';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

const isElement = (n: Node): n is Element => 'tagName' in n;
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const classes = (el: Element) => (attr(el, 'class') ?? '').split(/\s+/).filter(Boolean);

/**
 * Elements whose content is never a letter's: what no sanitiser reads as prose (code, controls,
 * embedded documents), but a <picture>, whose <img> is the letter's image, and the page's own
 * parts around the article (its form, navigation, header, footer and asides).
 */
const SKIPPED: ReadonlySet<string> = new Set([
  ...NON_PROSE_TAGS.filter((tag) => tag !== 'picture'),
  'form',
  'button',
  'nav',
  'header',
  'footer',
  'aside',
]);

const INLINE_MARKS: Record<string, TMark> = {
  b: 'b',
  strong: 'b',
  i: 'i',
  em: 'i',
  u: 'u',
  s: 's',
  strike: 's',
  del: 's',
  code: 'code',
};

const HEADINGS: Record<string, 1 | 2 | 3> = { h1: 1, h2: 2, h3: 3, h4: 3, h5: 3, h6: 3 };

/** What an article may embed that a mail cannot carry, by the kind the workspace names. */
const LEFT_OUT: Record<string, TLeftOutKind> = {
  iframe: 'embed',
  embed: 'embed',
  object: 'embed',
  video: 'video',
  audio: 'audio',
};

/** The children of `el` that are `tags`, looking through `through` (a table's row groups). */
const childrenOf = (el: ParentNode, tags: string[], through: string[] = []): Element[] =>
  el.childNodes.flatMap((c) =>
    !isElement(c)
      ? []
      : tags.includes(c.tagName)
        ? [c]
        : through.includes(c.tagName)
          ? childrenOf(c, tags, through)
          : [],
  );

function absolute(raw: string | undefined, base: URL, schemes: string[]): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.trim(), base);
    return schemes.includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function find(root: ParentNode, test: (el: Element) => boolean): Element | undefined {
  for (const child of root.childNodes) {
    if (!isElement(child)) continue;
    if (test(child)) return child;
    const inner = find(child, test);
    if (inner) return inner;
  }
  return undefined;
}

function textOf(node: ParentNode): string {
  let out = '';
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') out += (child as DefaultTreeAdapterTypes.TextNode).value;
    else if (isElement(child) && !SKIPPED.has(child.tagName)) out += textOf(child);
  }
  return out;
}

/** Collects a page's blocks: one walker, with the page's base URL for links and images. */
class Walker {
  readonly out = new PageBlocks();
  private spans: TSpan[] = [];

  constructor(private readonly base: URL) {}

  private get blocks(): TLetterBlock[] {
    return this.out.blocks;
  }

  /** Ends the paragraph being collected. */
  private flush(): void {
    const spans = tidySpans(this.spans);
    this.spans = [];
    // a paragraph of more spans than a block holds goes on in more paragraphs
    for (const block of spanBlocks(spans, { type: 'paragraph' })) this.out.push(block);
  }

  /** Inline content as spans (text with marks and links; images inside become blocks). */
  private inline(node: ParentNode, marks: TMark[], href: string | undefined, out: TSpan[]): void {
    for (const child of node.childNodes) {
      if (child.nodeName === '#text') {
        const text = (child as DefaultTreeAdapterTypes.TextNode).value.replace(/\s+/g, ' ');
        if (text) out.push({ text, ...(marks.length ? { marks } : {}), ...(href ? { href } : {}) });
        continue;
      }
      if (!isElement(child) || SKIPPED.has(child.tagName)) continue;
      const tag = child.tagName;
      if (tag === 'br') {
        out.push({ text: '\n' });
        continue;
      }
      if (tag === 'img') {
        this.image(child, href);
        continue;
      }
      const mark = INLINE_MARKS[tag];
      const link =
        tag === 'a'
          ? absolute(attr(child, 'href'), this.base, ['http:', 'https:', 'mailto:'])
          : href;
      this.inline(child, mark && !marks.includes(mark) ? [...marks, mark] : marks, link, out);
    }
  }

  private image(el: Element, href?: string, caption?: TSpan[]): void {
    const src = absolute(
      attr(el, 'data-src') ?? attr(el, 'data-original') ?? attr(el, 'src'),
      this.base,
      ['https:', 'http:'],
    );
    if (!src) return;
    const https = src.replace(/^http:/, 'https:');
    this.out.push({
      id: makeId(),
      type: 'image',
      src: https,
      alt: clip(attr(el, 'alt') ?? '', 500),
      ...(caption && caption.length ? { caption } : {}),
      ...(href ? { href } : {}),
    });
  }

  /**
   * A caption's spans as one caption holds them: it cannot go on in another caption, so the end
   * of a longer one is left out and counted (PageBlocks.shorten).
   */
  private caption(spans: TSpan[]): TSpan[] {
    if (spans.length <= LETTER_LIMITS.spansPerBlock) return spans;
    this.out.shorten();
    return spans.slice(0, LETTER_LIMITS.spansPerBlock);
  }

  private spansOf(el: Element): TSpan[] {
    const out: TSpan[] = [];
    this.inline(el, [], undefined, out);
    return tidySpans(out);
  }

  /**
   * A <ul>/<ol>'s items into `items`, a list inside an item as its nested items (`level`); below
   * LETTER_LIMITS.listDepth a list's text stays in its item.
   */
  private listItems(list: Element, level: number, items: TListItem[]): void {
    for (const li of list.childNodes) {
      if (!isElement(li) || li.tagName !== 'li' || items.length >= LETTER_LIMITS.listItems)
        continue;
      const nest = level < LETTER_LIMITS.listDepth;
      const subs = nest ? childrenOf(li, ['ul', 'ol']) : [];
      const out: TSpan[] = [];
      this.inline(
        { ...li, childNodes: li.childNodes.filter((c) => !subs.includes(c as Element)) },
        [],
        undefined,
        out,
      );
      // an item of more spans than a block holds goes on in more items of its level
      for (const spans of inParts(tidySpans(out))) {
        if (items.length >= LETTER_LIMITS.listItems) break;
        items.push(level === 0 ? spans : { spans, level, ordered: list.tagName === 'ol' });
      }
      for (const sub of subs) this.listItems(sub, level + 1, items);
    }
  }

  /** Block-level content. */
  walk(node: ParentNode): void {
    for (const child of node.childNodes) {
      if (this.out.isCut) return;
      if (child.nodeName === '#text') {
        const text = (child as DefaultTreeAdapterTypes.TextNode).value;
        if (text.trim()) this.spans.push({ text: text.replace(/\s+/g, ' ') });
        continue;
      }
      if (!isElement(child)) continue;
      const tag = child.tagName;
      if (SKIPPED.has(tag)) {
        if (LEFT_OUT[tag]) this.out.leaveOut(LEFT_OUT[tag]);
        continue;
      }
      if (HEADINGS[tag]) {
        this.flush();
        const heading = { type: 'heading', level: HEADINGS[tag]! } as const;
        for (const block of spanBlocks(this.spansOf(child), heading)) this.out.push(block);
      } else if (tag === 'p') {
        this.flush();
        const before = this.blocks.length;
        const spans = this.spansOf(child);
        // images inside the paragraph were pushed while reading it: the text goes before them
        if (spans.length && this.out.full) this.out.cutHere();
        else this.blocks.splice(before, 0, ...spanBlocks(spans, { type: 'paragraph' }));
      } else if (tag === 'ul' || tag === 'ol') {
        this.flush();
        const items: TListItem[] = [];
        this.listItems(child, 0, items);
        if (items.length)
          this.out.push({ id: makeId(), type: 'list', ordered: tag === 'ol', items });
      } else if (tag === 'blockquote') {
        this.flush();
        for (const block of spanBlocks(this.spansOf(child), { type: 'quote' }))
          this.out.push(block);
      } else if (tag === 'pre') {
        this.flush();
        const text = textOf(child).replace(/\n+$/, '');
        // longer than a code block holds: more code blocks, cut at line ends where it can be
        if (text)
          for (const piece of codePieces(text))
            this.out.push({ id: makeId(), type: 'code', text: piece });
      } else if (tag === 'hr') {
        this.flush();
        this.out.push({ id: makeId(), type: 'divider' });
      } else if (tag === 'table') {
        this.flush();
        this.table(child);
      } else if (tag === 'details') {
        // mail clients do not open <details>: the summary as a paragraph, the body after it
        this.flush();
        const summary = childrenOf(child, ['summary'])[0];
        const spans = summary ? this.spansOf(summary) : [];
        for (const block of spanBlocks(spans, { type: 'paragraph' })) this.out.push(block);
        this.walk({
          childNodes: child.childNodes.filter((c) => c !== summary),
        } as unknown as ParentNode);
        this.flush();
      } else if (tag === 'img') {
        this.flush();
        this.image(child);
      } else if (tag === 'figure') {
        this.flush();
        const img = find(child, (el) => el.tagName === 'img');
        const cap = find(child, (el) => el.tagName === 'figcaption');
        const link = find(child, (el) => el.tagName === 'a');
        if (img) {
          this.image(
            img,
            link ? absolute(attr(link, 'href'), this.base, ['http:', 'https:']) : undefined,
            cap ? this.caption(this.spansOf(cap)) : undefined,
          );
        } else {
          this.walk(child);
        }
      } else if (tag === 'a' || INLINE_MARKS[tag] || tag === 'span' || tag === 'br') {
        // inline content directly in a container: part of the current paragraph
        this.inline({ childNodes: [child] } as unknown as ParentNode, [], undefined, this.spans);
      } else {
        // div, section, article, main, table cells ...: their children, in order
        const container = tag === 'div' || tag === 'section' || tag === 'article' || tag === 'main';
        if (container) this.flush();
        this.walk(child);
        if (container) this.flush();
      }
    }
  }

  /**
   * A <table> as the letter's table: its rows (through thead, tbody, tfoot) and cells; one with
   * more rows, columns or spans in a cell than a letter's table holds is kept in part, and said.
   */
  private table(el: Element): void {
    const all = childrenOf(el, ['tr'], ['thead', 'tbody', 'tfoot']);
    const rows = all.slice(0, LETTER_LIMITS.tableRows).map((tr) => childrenOf(tr, ['td', 'th']));
    let shortened =
      all.length > LETTER_LIMITS.tableRows ||
      rows.some((row) => row.length > LETTER_LIMITS.tableCells);
    const cells = rows
      .map((row) =>
        row.slice(0, LETTER_LIMITS.tableCells).map((cell) => {
          const spans = this.spansOf(cell);
          if (spans.length > LETTER_LIMITS.spansPerBlock) shortened = true;
          return spans.slice(0, LETTER_LIMITS.spansPerBlock);
        }),
      )
      .filter((row) => row.some((cell) => cell.length > 0));
    if (cells.length === 0) return;
    if (shortened) this.out.shorten();
    const first = rows[0] ?? [];
    this.out.push({
      id: makeId(),
      type: 'table',
      header: first.length > 0 && first.every((cell) => cell.tagName === 'th'),
      rows: cells,
    });
  }

  finish(): { blocks: TLetterBlock[]; leftOut: TLeftOut } {
    this.flush();
    return { blocks: this.blocks, leftOut: this.out.leftOut() };
  }
}

/** The page's own title: og:title, else <title>. */
function pageTitle(doc: DefaultTreeAdapterTypes.Document): string {
  const og = find(doc, (el) => el.tagName === 'meta' && attr(el, 'property') === 'og:title');
  const title = og ? attr(og, 'content') : undefined;
  if (title) return title.trim();
  const t = find(doc, (el) => el.tagName === 'title');
  return t ? textOf(t).trim() : '';
}

/**
 * A Brunch article: the title is `.cover_title` (or og:title), the body `.wrap_body`. The
 * writer's name is in `.cover_writer` / the author meta.
 */
export function brunchToBlocks(
  html: string,
  pageUrl: URL,
): { title: string; blocks: TLetterBlock[]; leftOut: TLeftOut } {
  const doc = parse(html);
  const cover = find(doc, (el) => classes(el).includes('cover_title'));
  const title = (cover ? textOf(cover).trim() : '') || pageTitle(doc);
  const body =
    find(doc, (el) => classes(el).includes('wrap_body')) ??
    find(doc, (el) => el.tagName === 'article') ??
    find(doc, (el) => el.tagName === 'body');
  const walker = new Walker(pageUrl);
  if (body) walker.walk(body);
  return { title: clip(title, 200), ...walker.finish() };
}

/**
 * A Typedream page (server-rendered by Next.js): the content is the page's <main> (or the body
 * without its navigation, header and footer). The title is the page's (og:title, else <title>,
 * else an opening H1); an opening H1 that the title already says (the same words, or the start of
 * a longer og:title) leaves the body: the letter shows its title once, above the body
 * (render.ts), as the letter page's header does (the H1 stayed in the body and read twice).
 */
export function typedreamToBlocks(
  html: string,
  pageUrl: URL,
): { title: string; blocks: TLetterBlock[]; leftOut: TLeftOut } {
  const doc = parse(html);
  const main = find(doc, (el) => el.tagName === 'main') ?? find(doc, (el) => el.tagName === 'body');
  const walker = new Walker(pageUrl);
  if (main) walker.walk(main);
  const { blocks, leftOut } = walker.finish();
  const first = blocks[0];
  const heading =
    first?.type === 'heading' && first.level === 1
      ? first.spans
          .map((s) => s.text)
          .join('')
          .replace(/\s+/g, ' ')
          .trim()
      : '';
  const title = pageTitle(doc) || heading;
  const repeats = !!heading && title.toLowerCase().startsWith(heading.toLowerCase());
  return { title: clip(title, 200), blocks: repeats ? blocks.slice(1) : blocks, leftOut };
}

/**
 * The text of a Brunch profile page a writer may put their address in (the profile's
 * introduction and description), to verify that the page is theirs.
 */
export function brunchProfileText(html: string): string {
  const doc = parse(html);
  const parts: string[] = [];
  const desc = find(doc, (el) => el.tagName === 'meta' && attr(el, 'name') === 'description');
  if (desc) parts.push(attr(desc, 'content') ?? '');
  const og = find(doc, (el) => el.tagName === 'meta' && attr(el, 'property') === 'og:description');
  if (og) parts.push(attr(og, 'content') ?? '');
  const intro =
    find(doc, (el) => classes(el).some((c) => c === 'profile_desc' || c === 'txt_intro')) ??
    find(doc, (el) => classes(el).includes('wrap_profile'));
  if (intro) parts.push(textOf(intro));
  return parts.join('\n');
}

/**
 * Whether `text` names `address` (lower case) as a whole address, not as a part of a longer one:
 * the character before it is no character of an address's local part, and the one after it
 * neither continues the domain nor starts another label ('a@b.com.' ending a sentence is a
 * whole address). A quote before it is a boundary ('a@b.com'). Without this a verified address
 * that is the tail of the writer's ('nch-writer@x' in 'brunch-writer@x') passed as theirs.
 */
export function mentionsAddress(text: string, address: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(address); at !== -1; at = lower.indexOf(address, at + 1)) {
    const before = lower[at - 1] ?? '';
    const after = lower.slice(at + address.length, at + address.length + 2);
    if (/[a-z0-9._%+-]/.test(before) || /^[a-z0-9_-]|^\.[a-z0-9-]/.test(after)) continue;
    return true;
  }
  return false;
}
