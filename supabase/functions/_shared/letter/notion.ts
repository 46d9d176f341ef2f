// A public Notion page as the letter's block model. Notion pages render in the browser: their
// content comes from Notion's page-chunk API (loadPageChunk, syncRecordValues for blocks not in
// the first chunk, getSignedFileUrls for images), which `notion-client` speaks. The API's base
// URL is configurable (NOTION_API_BASE_URL): locally the providers server's `/pages` fake.
// The page address itself is never fetched; only its page id is read from it.
import { NotionAPI } from 'notion-client';
import { parsePageId } from 'notion-utils';
import {
  listTree,
  type TLetterBlock,
  type TListTree,
  type TMark,
  type TSpan,
} from '@reaction-blocks/contracts/letters';
import {
  clip,
  codePieces,
  inParts,
  LETTER_LIMITS,
  makeId,
  PageBlocks,
  spanBlocks,
  spanPieces,
  type TLeftOut,
  type TLeftOutKind,
} from './model.ts';

/** A Notion record map as the API answers it (only what we read). */
export interface NotionRecordMap {
  block: Record<string, unknown>;
  signed_urls?: Record<string, string>;
}

interface NotionBlock {
  id: string;
  type: string;
  content?: string[];
  properties?: Record<string, unknown>;
  format?: Record<string, unknown>;
}

/** A record as the API gives it ({value} or, newer, {value: {value}}). */
function blockValue(record: unknown): NotionBlock | undefined {
  let v = record as { value?: unknown; id?: unknown } | undefined;
  for (let i = 0; i < 3 && v && !v.id && v.value; i++) v = v.value as typeof v;
  return v && typeof v.id === 'string' ? (v as unknown as NotionBlock) : undefined;
}

type Decoration = [string, Array<[string, string?]>?];

const MARK_OF: Record<string, TMark> = { b: 'b', i: 'i', _: 'u', s: 's', c: 'code' };

/** Notion's rich text ([[text, [[mark, arg]]], ...]) as spans; links only when absolute. */
export function notionSpans(title: unknown): TSpan[] {
  if (!Array.isArray(title)) return [];
  const spans: TSpan[] = [];
  for (const part of title as Decoration[]) {
    if (!Array.isArray(part) || typeof part[0] !== 'string') continue;
    let text = part[0];
    const marks: TMark[] = [];
    let href: string | undefined;
    for (const deco of part[1] ?? []) {
      if (!Array.isArray(deco)) continue;
      const [kind, arg] = deco;
      if (kind && MARK_OF[kind] && !marks.includes(MARK_OF[kind])) marks.push(MARK_OF[kind]);
      if (kind === 'a' && typeof arg === 'string') {
        try {
          const url = new URL(arg);
          if (['http:', 'https:', 'mailto:'].includes(url.protocol)) href = url.href;
        } catch {
          // a relative Notion link (/page-id): dropped, the text stays
        }
      }
      if (kind === 'e' && typeof arg === 'string') text = arg; // inline equation: its source
    }
    // mentions (‣) carry no readable text
    if (text === '‣') continue;
    // a run longer than a span holds goes on in spans of the same look (none of it is dropped)
    spans.push(
      ...spanPieces({ text, ...(marks.length ? { marks } : {}), ...(href ? { href } : {}) }),
    );
  }
  return spans;
}

const plain = (title: unknown) =>
  notionSpans(title)
    .map((s) => s.text)
    .join('');

/** Notion block types with no mail equivalent, by the kind the workspace names them. */
const LEFT_OUT: Record<string, TLeftOutKind> = {
  page: 'subpage',
  alias: 'subpage',
  collection_view: 'database',
  collection_view_page: 'database',
  embed: 'embed',
  tweet: 'embed',
  figma: 'embed',
  gist: 'embed',
  codepen: 'embed',
  maps: 'embed',
  drive: 'embed',
  typeform: 'embed',
  miro: 'embed',
  excalidraw: 'embed',
  replit: 'embed',
  external_object_instance: 'embed',
  video: 'video',
  audio: 'audio',
  file: 'file',
  pdf: 'file',
};

/** Children deeper than this are not read (a sane page nests a few levels). */
const MAX_DEPTH = 12;

/**
 * A table's rows as cells of spans, in the table's column order (Notion: table + table_row), and
 * whether it was kept in part (more rows, columns or spans in a cell than a letter's table holds).
 */
function tableRows(table: NotionBlock, get: (id: string) => NotionBlock | undefined) {
  const order = (table.format?.table_block_column_order as string[] | undefined) ?? [];
  const rows: TSpan[][][] = [];
  let shortened = false;
  for (const rowId of table.content ?? []) {
    const row = get(rowId);
    if (row?.type !== 'table_row') continue;
    if (rows.length >= LETTER_LIMITS.tableRows) {
      shortened = true;
      break;
    }
    const columns = order.length ? order : Object.keys(row.properties ?? {});
    if (columns.length > LETTER_LIMITS.tableCells) shortened = true;
    rows.push(
      columns.slice(0, LETTER_LIMITS.tableCells).map((column) => {
        const spans = notionSpans(row.properties?.[column]);
        if (spans.length > LETTER_LIMITS.spansPerBlock) shortened = true;
        return spans.slice(0, LETTER_LIMITS.spansPerBlock);
      }),
    );
  }
  return { rows, shortened };
}

/**
 * The ids a page's letter reads, in reading order: the page's content, every block's children
 * but a sub-page's (a table's rows, a toggle's or a toggleable heading's body, columns, ...) and
 * a synced block's original (transclusion_reference -> its transclusion_container).
 */
function readingOrder(recordMap: NotionRecordMap, pageId: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number) => {
    if (seen.has(id) || depth > MAX_DEPTH) return;
    seen.add(id);
    out.push(id);
    const b = blockValue(recordMap.block[id]);
    if (!b || (depth > 0 && LEFT_OUT[b.type])) return;
    const original = referenceOf(b);
    if (original) visit(original, depth + 1);
    for (const child of b.content ?? []) visit(child, depth + 1);
  };
  visit(pageId, 0);
  return out;
}

/** A synced block's copy points at its original (the transclusion_container holding the blocks). */
const referenceOf = (b: NotionBlock): string | undefined =>
  b.type === 'transclusion_reference'
    ? ((b.format?.transclusion_reference_pointer as { id?: unknown } | undefined)?.id as
        string | undefined)
    : undefined;

/**
 * The page's blocks, in order, as the letter's block model, with what was left out
 * (`complete: false`: blocks of the page were not read, so the letter stops at the first one).
 */
export function notionToBlocks(
  recordMap: NotionRecordMap,
  pageId: string,
  complete = true,
): { title: string; blocks: TLetterBlock[]; leftOut: TLeftOut } {
  const get = (id: string) => blockValue(recordMap.block[id]);
  const page =
    get(pageId) ??
    Object.values(recordMap.block)
      .map(blockValue)
      .find((b) => b?.type === 'page');
  const out = new PageBlocks();
  if (!page) return { title: '', blocks: [], leftOut: out.leftOut() };
  const title = plain(page.properties?.title);
  let list: Extract<TLetterBlock, { type: 'list' }> | null = null;
  /** how many list items the open list's own items are nested in (0: a list of the page) */
  let listRoot = 0;
  /**
   * Where the numbered lists a long item's tail ended go on (breaker BRK-6): by how many items
   * they are nested in, the number of the next item.
   */
  const goOn = new Map<number, number>();
  /** The blocks being read (a synced block may show one original twice, never inside itself). */
  const path = new Set<string>();
  let stopped = false;

  const imageOf = (b: NotionBlock): string | undefined => {
    const signed = recordMap.signed_urls?.[b.id];
    const source =
      (b.format?.display_source as string | undefined) ??
      ((b.properties?.source as string[][] | undefined)?.[0]?.[0] as string | undefined);
    return signed ?? (source ? (recordMap.signed_urls?.[source] ?? source) : undefined);
  };
  const text = (spans: TSpan[]) => spans.slice(0, LETTER_LIMITS.spansPerBlock);
  /** Text as paragraphs: one, or more when it has more spans than one holds. */
  const paragraphs = (spans: TSpan[]) => {
    for (const block of spanBlocks(spans, { type: 'paragraph' })) out.push(block);
  };
  /**
   * Items whose text did not all fit in them: the rest of it, and their later paragraphs, follow
   * the item as paragraphs (in the order read), the list ended there (tail).
   */
  const overflowed = new Set<TSpan[]>();
  /**
   * The rest of an item's text, right after the item: the open list ends there and the items
   * after the text start a new list, a numbered one going on with its numbers (breaker BRK-6:
   * the text followed the whole list, the later items between the item and its own words).
   */
  const tail = (spans: TSpan[]) => {
    if (list) {
      // the numbers each open level of the list reached: its last item's chain of sub-lists
      let level = listRoot;
      for (let open: TListTree | undefined = listTree(list); open; level++) {
        if (open.ordered) goOn.set(level, (open.start ?? 1) + open.items.length);
        else goOn.delete(level);
        open = open.items.at(-1)?.lists.at(-1);
      }
      list = null;
    }
    paragraphs(spans);
  };

  /**
   * `item`: how many list items the blocks are nested in (their list level when they are items);
   * `holder`: the spans of the item a paragraph among them belongs to.
   */
  const walk = (ids: string[] | undefined, depth: number, item = 0, holder?: TSpan[]) => {
    for (const id of ids ?? []) {
      if (stopped || path.has(id)) continue;
      if (out.full) {
        // one more part of the page than the letter holds
        out.cutHere();
        stopped = true;
        return;
      }
      const b = get(id);
      if (!b) {
        // not read within the load's requests: the letter ends before it; a block Notion did
        // not answer for (not shared) is left out
        if (!complete) {
          out.cutHere();
          stopped = true;
          return;
        }
        out.leaveOut('other');
        continue;
      }
      if (depth > MAX_DEPTH) {
        out.leaveOut('other');
        continue;
      }
      path.add(id);
      read(b, depth, item, holder);
      path.delete(id);
    }
  };

  const read = (b: NotionBlock, depth: number, item: number, holder?: TSpan[]) => {
    const all = notionSpans(b.properties?.title);
    const listKind =
      b.type === 'bulleted_list' || b.type === 'to_do'
        ? 'ul'
        : b.type === 'numbered_list'
          ? 'ol'
          : null;
    if (listKind) {
      const ordered = listKind === 'ol';
      // an item inside an item is a nested item of the same list block (listTree nests it in
      // the <li> before it); one of the list itself, or one after the list was interrupted,
      // belongs to a list of its kind
      const nested =
        list !== null && item > listRoot && list.items.length < LETTER_LIMITS.listItems;
      if (
        !nested &&
        (!list ||
          list.ordered !== ordered ||
          item !== listRoot ||
          list.items.length >= LETTER_LIMITS.listItems)
      ) {
        // after an item's tail, a numbered list of that level goes on with its numbers
        const start = ordered ? goOn.get(item) : undefined;
        for (const level of goOn.keys()) if (level >= item) goOn.delete(level);
        list = { id: makeId(), type: 'list', ordered, ...(start ? { start } : {}), items: [] };
        listRoot = item;
        out.push(list);
      }
      const checked = (b.properties?.checked as string[][] | undefined)?.[0]?.[0] === 'Yes';
      const [line = [], ...rest] = inParts(
        b.type === 'to_do' ? [{ text: checked ? '☑ ' : '☐ ' }, ...all] : all,
      );
      // an item's level counts from the page: a list begun inside an item (its child items
      // after the item's tail) is drawn at their depth (listTree's indent), not as the page's
      list!.items.push(
        item > 0 ? { spans: line, level: Math.min(item, LETTER_LIMITS.listDepth), ordered } : line,
      );
      if (rest.length) {
        overflowed.add(line);
        tail(rest.flat());
      }
      walk(b.content, depth + 1, item + 1, line);
      return;
    }
    if (item > 0 && holder && b.type === 'text') {
      // a paragraph under a list item is more of the item's text, on a line of its own, while
      // the item holds it; else it is the item's tail, as are the item's later paragraphs
      const fits =
        !overflowed.has(holder) && holder.length + 1 + all.length <= LETTER_LIMITS.spansPerBlock;
      if (all.length && fits) {
        holder.push({ text: '\n' }, ...all);
      } else if (all.length) {
        overflowed.add(holder);
        tail(all);
      }
      walk(b.content, depth + 1, item, holder);
      return;
    }
    // any other block under a list item follows the list, which goes on: the item's later
    // child items stay nested in it and its next sibling stays in the same list
    if (item === 0) {
      list = null;
      goOn.clear();
    }
    switch (b.type) {
      case 'text':
        paragraphs(all);
        break;
      case 'header':
      case 'sub_header':
      case 'sub_sub_header':
        // a toggleable heading's body follows it (below, with every block's children); a
        // heading, quote or callout of more spans than one holds goes on in more of its kind
        for (const block of spanBlocks(all, {
          type: 'heading',
          level: b.type === 'header' ? 1 : b.type === 'sub_header' ? 2 : 3,
        }))
          out.push(block);
        break;
      case 'quote':
        for (const block of spanBlocks(all, { type: 'quote' })) out.push(block);
        break;
      case 'callout': {
        const icon = b.format?.page_icon;
        const kind = typeof icon === 'string' && [...icon].length <= 4 ? { icon } : {};
        for (const block of spanBlocks(all, { type: 'callout', ...kind })) out.push(block);
        break;
      }
      case 'divider':
        out.push({ id: makeId(), type: 'divider' });
        break;
      case 'code':
      case 'equation': {
        // an equation block as its source (TeX): mail renders no math; a code block longer
        // than one holds goes on in more code blocks, cut at line ends where it can be
        const language = (b.properties?.language as string[][] | undefined)?.[0]?.[0];
        for (const text of codePieces(all.map((s) => s.text).join('')))
          out.push({
            id: makeId(),
            type: 'code',
            text,
            ...(typeof language === 'string' ? { language: clip(language, 40) } : {}),
          });
        break;
      }
      case 'image': {
        const src = imageOf(b);
        if (src) {
          // a caption cannot go on in another caption: its end is left out, and said
          const whole = notionSpans(b.properties?.caption);
          if (whole.length > LETTER_LIMITS.spansPerBlock) out.shorten();
          const caption = text(whole);
          out.push({
            id: makeId(),
            type: 'image',
            src,
            alt: clip(caption.map((s) => s.text).join(''), 500),
            ...(caption.length ? { caption } : {}),
          });
        }
        break;
      }
      case 'bookmark': {
        const link = (b.properties?.link as string[][] | undefined)?.[0]?.[0];
        const label = plain(b.properties?.title) || link;
        if (link && label) {
          out.push({
            id: makeId(),
            type: 'paragraph',
            spans: notionSpans([[label, [['a', link]]]]),
          });
        }
        break;
      }
      case 'table': {
        const { rows, shortened } = tableRows(b, get);
        if (shortened) out.shorten();
        if (rows.length) {
          out.push({
            id: makeId(),
            type: 'table',
            header: b.format?.table_block_column_header === true,
            rows,
          });
        }
        // its rows are read above, not as blocks of their own
        return;
      }
      case 'toggle':
        // mail clients do not open <details>: the summary as a paragraph, its body after it
        paragraphs(all);
        break;
      case 'transclusion_reference': {
        // a synced block's copy: its original's blocks
        const original = referenceOf(b);
        if (original) walk([original], depth + 1, item, holder);
        return;
      }
      case 'column_list':
      case 'column':
      case 'transclusion_container':
        break;
      default:
        // sub-pages, databases, embeds, files, video, audio, a table of contents, ...: said
        // in the workspace by kind
        out.leaveOut(LEFT_OUT[b.type] ?? 'other');
        return;
    }
    // children: a toggle's or a toggleable heading's body, an indented block's, a column's
    // (inside a list item, its child items stay at the item's level)
    walk(b.content, depth + 1, item);
  };
  walk(page.content, 0);
  return { title, blocks: out.blocks, leftOut: out.leftOut() };
}

export interface NotionLoadOptions {
  apiBaseUrl: string;
  timeoutMs: number;
}

/**
 * At most this many page-chunk API calls read one page: the first chunk (100 blocks), then the
 * blocks still missing in reading order, 100 ids a call (more than a 400-block letter needs,
 * whatever the page's nesting), then one call for the images' signed URLs.
 */
export const NOTION_READS = 10;
const CHUNK = 100;

/** Loads a public Notion page through the page-chunk API, in at most NOTION_READS + 1 calls. */
export async function loadNotionPage(
  pageUrl: URL,
  opts: NotionLoadOptions,
): Promise<{ title: string; blocks: TLetterBlock[]; leftOut: TLeftOut }> {
  const pageId = parsePageId(pageUrl.pathname.split('/').pop() ?? '', { uuid: true });
  if (!pageId) throw new Error('no Notion page id in the address');
  const api = new NotionAPI({
    apiBaseUrl: opts.apiBaseUrl,
    ofetchOptions: { timeout: opts.timeoutMs, retry: 1 },
  });
  // notion-client's getPage reads missing blocks until none is missing, however many calls that
  // takes (and for ever when Notion does not answer for one): this reads them within a budget
  const first = (await api.getPageRaw(pageId, { chunkLimit: CHUNK })) as unknown as {
    recordMap?: NotionRecordMap;
  };
  const recordMap: NotionRecordMap = { block: { ...(first.recordMap?.block ?? {}) } };
  if (!blockValue(recordMap.block[pageId])) throw new Error('Notion page not found');
  const asked = new Set<string>();
  let complete = false;
  for (let reads = 1; reads <= NOTION_READS; reads++) {
    const missing = readingOrder(recordMap, pageId).filter(
      (id) => !blockValue(recordMap.block[id]) && !asked.has(id),
    );
    if (missing.length === 0) {
      complete = true;
      break;
    }
    if (reads === NOTION_READS) break;
    const batch = missing.slice(0, CHUNK);
    for (const id of batch) asked.add(id);
    const got = (await api.getBlocks(batch)) as unknown as { recordMap?: NotionRecordMap };
    Object.assign(recordMap.block, got.recordMap?.block ?? {});
  }
  const images = readingOrder(recordMap, pageId).filter(
    (id) => blockValue(recordMap.block[id])?.type === 'image',
  );
  if (images.length) {
    await api.addSignedUrls({
      recordMap: recordMap as unknown as Parameters<NotionAPI['addSignedUrls']>[0]['recordMap'],
      contentBlockIds: images,
    });
  }
  return notionToBlocks(recordMap, pageId, complete);
}
