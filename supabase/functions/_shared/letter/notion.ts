// A public Notion page as the letter's block model. Notion pages render in the browser: their
// content comes from Notion's page-chunk API (loadPageChunk, syncRecordValues for blocks not in
// the first chunk, getSignedFileUrls for images), which `notion-client` speaks. The API's base
// URL is configurable (NOTION_API_BASE_URL): locally the providers server's `/pages` fake.
// The page address itself is never fetched; only its page id is read from it.
import { NotionAPI } from 'notion-client';
import { parsePageId } from 'notion-utils';
import type { TLetterBlock, TSpan, TMark } from '@reaction-blocks/contracts/letters';
import { makeId } from './model.ts';

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
    spans.push({
      text: text.slice(0, 5000),
      ...(marks.length ? { marks } : {}),
      ...(href ? { href } : {}),
    });
  }
  return spans;
}

const plain = (title: unknown) =>
  notionSpans(title)
    .map((s) => s.text)
    .join('');

/** The page's blocks, in order, as the letter's block model. */
export function notionToBlocks(
  recordMap: NotionRecordMap,
  pageId: string,
): { title: string; blocks: TLetterBlock[] } {
  const get = (id: string) => blockValue(recordMap.block[id]);
  const page =
    get(pageId) ??
    Object.values(recordMap.block)
      .map(blockValue)
      .find((b) => b?.type === 'page');
  if (!page) return { title: '', blocks: [] };
  const title = plain(page.properties?.title);
  const blocks: TLetterBlock[] = [];
  let list: Extract<TLetterBlock, { type: 'list' }> | null = null;
  const seen = new Set<string>();

  const imageOf = (b: NotionBlock): string | undefined => {
    const signed = recordMap.signed_urls?.[b.id];
    const source =
      (b.format?.display_source as string | undefined) ??
      ((b.properties?.source as string[][] | undefined)?.[0]?.[0] as string | undefined);
    return signed ?? (source ? (recordMap.signed_urls?.[source] ?? source) : undefined);
  };

  const walk = (ids: string[] | undefined, depth: number) => {
    for (const id of ids ?? []) {
      if (seen.has(id) || blocks.length >= 400 || depth > 8) continue;
      seen.add(id);
      const b = get(id);
      if (!b) continue;
      const spans = notionSpans(b.properties?.title);
      const listKind =
        b.type === 'bulleted_list' || b.type === 'to_do'
          ? 'ul'
          : b.type === 'numbered_list'
            ? 'ol'
            : null;
      if (listKind) {
        const ordered = listKind === 'ol';
        if (!list || list.ordered !== ordered) {
          list = { id: makeId(), type: 'list', ordered, items: [] };
          blocks.push(list);
        }
        const checked = (b.properties?.checked as string[][] | undefined)?.[0]?.[0] === 'Yes';
        list.items.push(b.type === 'to_do' ? [{ text: checked ? '☑ ' : '☐ ' }, ...spans] : spans);
        // nested items follow as items of the same list
        walk(b.content, depth + 1);
        continue;
      }
      list = null;
      switch (b.type) {
        case 'text':
          if (spans.length) blocks.push({ id: makeId(), type: 'paragraph', spans });
          break;
        case 'header':
        case 'sub_header':
        case 'sub_sub_header':
          blocks.push({
            id: makeId(),
            type: 'heading',
            level: b.type === 'header' ? 1 : b.type === 'sub_header' ? 2 : 3,
            spans,
          });
          break;
        case 'quote':
          blocks.push({ id: makeId(), type: 'quote', spans });
          break;
        case 'callout': {
          const icon = b.format?.page_icon;
          blocks.push({
            id: makeId(),
            type: 'callout',
            ...(typeof icon === 'string' && [...icon].length <= 4 ? { icon } : {}),
            spans,
          });
          break;
        }
        case 'divider':
          blocks.push({ id: makeId(), type: 'divider' });
          break;
        case 'code':
          blocks.push({
            id: makeId(),
            type: 'code',
            text: spans
              .map((s) => s.text)
              .join('')
              .slice(0, 20000),
            ...(typeof (b.properties?.language as string[][] | undefined)?.[0]?.[0] === 'string'
              ? { language: String((b.properties!.language as string[][])[0]![0]).slice(0, 40) }
              : {}),
          });
          break;
        case 'image': {
          const src = imageOf(b);
          if (src) {
            const caption = notionSpans(b.properties?.caption);
            blocks.push({
              id: makeId(),
              type: 'image',
              src,
              alt: caption
                .map((s) => s.text)
                .join('')
                .slice(0, 500),
              ...(caption.length ? { caption } : {}),
            });
          }
          break;
        }
        case 'bookmark': {
          const link = (b.properties?.link as string[][] | undefined)?.[0]?.[0];
          const label = plain(b.properties?.title) || link;
          if (link && label) {
            blocks.push({
              id: makeId(),
              type: 'paragraph',
              spans: notionSpans([[label, [['a', link]]]]),
            });
          }
          break;
        }
        case 'toggle':
          if (spans.length) blocks.push({ id: makeId(), type: 'paragraph', spans });
          walk(b.content, depth + 1);
          break;
        case 'column_list':
        case 'column':
          walk(b.content, depth + 1);
          break;
        default:
          // sub-pages, databases, embeds, files, equations: not part of a letter
          break;
      }
    }
  };
  walk(page.content, 0);
  return { title, blocks };
}

export interface NotionLoadOptions {
  apiBaseUrl: string;
  timeoutMs: number;
}

/** Loads a public Notion page through the page-chunk API. */
export async function loadNotionPage(
  pageUrl: URL,
  opts: NotionLoadOptions,
): Promise<{ title: string; blocks: TLetterBlock[] }> {
  const pageId = parsePageId(pageUrl.pathname.split('/').pop() ?? '', { uuid: true });
  if (!pageId) throw new Error('no Notion page id in the address');
  const api = new NotionAPI({
    apiBaseUrl: opts.apiBaseUrl,
    ofetchOptions: { timeout: opts.timeoutMs, retry: 1 },
  });
  const recordMap = (await api.getPage(pageId, {
    fetchCollections: false,
    fetchMissingBlocks: true,
    signFileUrls: true,
    chunkLimit: 100,
  })) as unknown as NotionRecordMap;
  return notionToBlocks(recordMap, pageId);
}
