// Open Graph and Twitter card tags for the public page of one block (/block/?id=&block_id=), so a
// shared link shows a preview in chat apps and social sites. Crawlers run no JavaScript, so the
// tags must be in the HTML as served: whatever serves the page (the local web server,
// supabase/local/web.ts; in production an edge function in front of the static site,
// dashboard/viewer/edge/block-page-worker.ts; docs/self-hosting.md) reads the block through the API as anon
// and puts these tags into the static page. Pure functions, no Node or DOM: they run anywhere.
//
// Values come from the block's Open Graph settings (title, description, image_url), falling back
// to the page's title (a letter's title, else the block's name), a sentence per block type and a
// default image; an unknown or deactivated block (anon cannot read those) gets the site's own
// preview. Every value is HTML-escaped.

import { blockDefaults } from '@reaction-blocks/contracts/block-defaults';
import { escapeHtml } from '@reaction-blocks/contracts/escape-html';
import { UUID_RE } from '@reaction-blocks/contracts/ids';

export interface OgBlock {
  id: string;
  owner_id: string;
  type: string;
  name: string | null;
  language: string | null;
  open_graph: { title?: unknown; description?: unknown; image_url?: unknown } | null;
  /** The page's heading: a letter's title, else the block's name (absent from older readers). */
  title?: string | null;
}

export interface OgMeta {
  title: string;
  description: string;
  image: string;
  imageAlt: string;
  /** Set for the default image, whose size we know. */
  imageSize?: { width: number; height: number };
  url: string;
  locale: 'en_US' | 'ko_KR';
  siteName: string;
}

/** The columns the page needs, all public (what anon may read of a published block). */
export const OG_BLOCK_COLUMNS = 'id,owner_id,type,name,language,open_graph,title';

export const SITE_NAME = 'Reaction Blocks';
export const DEFAULT_IMAGE_PATH = '/og-default.jpg';
export const DEFAULT_IMAGE_SIZE = { width: 1200, height: 630 } as const;

const DESCRIPTIONS: Record<'en' | 'ko', Record<string, string>> = {
  en: {
    comment: 'Join the conversation: read the comments and leave yours.',
    qna: 'Ask a question and read the answers.',
    like: 'Like it with one click.',
    button: 'One click away.',
    ab: 'Which one do you prefer? Cast your vote.',
    form: 'Answer a few questions.',
    site: 'Comments, likes, polls and forms for any web page.',
  },
  ko: {
    comment: '댓글을 읽고 의견을 남겨 주세요.',
    qna: '질문하고 답변을 확인하세요.',
    like: '한 번의 클릭으로 좋아요를 눌러 주세요.',
    button: '클릭 한 번이면 됩니다.',
    ab: '어느 쪽이 더 좋으세요? 투표해 주세요.',
    form: '몇 가지 질문에 답해 주세요.',
    site: '어떤 웹 페이지에나 넣는 댓글, 좋아요, 투표, 설문.',
  },
};

const text = (value: unknown, max: number): string =>
  typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, max) : '';

/** An absolute http(s) URL, or '' (a javascript: or relative value is dropped). */
export function httpUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

/** The block the page's query names: `?id={ownerId}&block_id={blockId}`, both uuids; else null. */
export function blockIdsFrom(search: URLSearchParams): { ownerId: string; blockId: string } | null {
  const ownerId = search.get('id') ?? '';
  const blockId = search.get('block_id') ?? '';
  return UUID_RE.test(ownerId) && UUID_RE.test(blockId) ? { ownerId, blockId } : null;
}

/** The canonical link of a block's page (only the two ids; other query parameters dropped). */
export function blockPageUrl(origin: string, ids: { ownerId: string; blockId: string } | null) {
  const base = `${origin.replace(/\/+$/, '')}/block/`;
  return ids
    ? `${base}?id=${encodeURIComponent(ids.ownerId)}&block_id=${encodeURIComponent(ids.blockId)}`
    : base;
}

/** What the tags say, from the block (null: unknown, deactivated or unreadable). */
export function blockMeta(
  block: OgBlock | null,
  page: { origin: string; ids: { ownerId: string; blockId: string } | null },
): OgMeta {
  const language = block?.language === 'ko' ? 'ko' : 'en';
  const og = block?.open_graph && typeof block.open_graph === 'object' ? block.open_graph : {};
  const name = text(block?.title, 200) || text(block?.name, 200);
  const title = text(og.title, 200) || (block ? name || 'Untitled' : SITE_NAME);
  const description =
    text(og.description, 500) ||
    (block ? DESCRIPTIONS[language][block.type] : undefined) ||
    DESCRIPTIONS[language].site!;
  const custom = httpUrl(og.image_url);
  const origin = page.origin.replace(/\/+$/, '');
  return {
    title,
    description,
    image: custom || `${origin}${DEFAULT_IMAGE_PATH}`,
    imageAlt: custom ? title : SITE_NAME,
    imageSize: custom ? undefined : DEFAULT_IMAGE_SIZE,
    url: blockPageUrl(origin, block ? page.ids : null),
    locale: language === 'ko' ? 'ko_KR' : 'en_US',
    siteName: SITE_NAME,
  };
}

/** The <title> and the meta tags, one a line. */
export function renderHeadTags(meta: OgMeta): string {
  const e = escapeHtml;
  const tag = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${e(value)}" />`;
  return [
    `<title>${meta.title === meta.siteName ? e(meta.title) : `${e(meta.title)} · ${e(meta.siteName)}`}</title>`,
    `<meta name="description" content="${e(meta.description)}" />`,
    `<link rel="canonical" href="${e(meta.url)}" />`,
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', meta.siteName),
    tag('property', 'og:title', meta.title),
    tag('property', 'og:description', meta.description),
    tag('property', 'og:url', meta.url),
    tag('property', 'og:image', meta.image),
    tag('property', 'og:image:alt', meta.imageAlt),
    ...(meta.imageSize
      ? [
          tag('property', 'og:image:width', String(meta.imageSize.width)),
          tag('property', 'og:image:height', String(meta.imageSize.height)),
        ]
      : []),
    tag('property', 'og:locale', meta.locale),
    tag('name', 'twitter:card', 'summary_large_image'),
    tag('name', 'twitter:title', meta.title),
    tag('name', 'twitter:description', meta.description),
    tag('name', 'twitter:image', meta.image),
    tag('name', 'twitter:image:alt', meta.imageAlt),
  ].join('\n    ');
}

/**
 * The page with the tags: the template's <title> is replaced by the tags (or they go before
 * </head>). The template is our own static file; only the tags' values come from the block.
 */
export function renderBlockPage(template: string, meta: OgMeta): string {
  const tags = renderHeadTags(meta);
  if (/<title>[\s\S]*?<\/title>/i.test(template)) {
    return template.replace(/<title>[\s\S]*?<\/title>/i, () => tags);
  }
  return template.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
}

/**
 * Reads the block's preview fields through the API as anon: `get_block_card`, a GET that only
 * answers for a published block and that a shared cache may keep for a minute. Null for an unknown or deactivated block, a block of another owner than the link says,
 * or any failure (the page then gets the site's preview rather than an error).
 */
export async function fetchOgBlock(
  api: { url: string; anonKey: string; fetch?: typeof fetch; timeoutMs?: number },
  ids: { ownerId: string; blockId: string } | null,
): Promise<OgBlock | null> {
  if (!ids) return null;
  const url =
    `${api.url.replace(/\/+$/, '')}/rest/v1/rpc/get_block_card?select=${OG_BLOCK_COLUMNS}` +
    `&p_owner_id=${ids.ownerId}&p_block_id=${ids.blockId}`;
  try {
    const res = await (api.fetch ?? fetch)(url, {
      headers: {
        apikey: api.anonKey,
        authorization: `Bearer ${api.anonKey}`,
        accept: 'application/json',
      },
      signal: AbortSignal.timeout(api.timeoutMs ?? 3000),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const rows = (await res.json()) as unknown;
    const row = Array.isArray(rows) ? (rows[0] as OgBlock | undefined) : undefined;
    return row && row.id === ids.blockId ? row : null;
  } catch {
    return null;
  }
}

/**
 * The visible page from the same read: its title (a letter's, else the block's name) as its
 * heading, its type and language on
 * <html>, so the first paint already shows them (viewer/page.ts fills them in on a static host
 * with no one to do this, after the block loads). An unknown block leaves the template as it is.
 */
export function fillBlockPage(template: string, block: OgBlock | null): string {
  if (!block) return template;
  const language = block.language === 'ko' ? 'ko' : 'en';
  const name = text(block.title, 200) || text(block.name, 200) || blockDefaults(language).name;
  const type = /^[a-z_]{1,40}$/.test(block.type) ? block.type : '';
  return template
    .replace(/<html lang="en"/i, () => `<html lang="${language}"`)
    .replace('data-block-type=""', () => `data-block-type="${type}"`)
    .replace('data-block-lang=""', () => `data-block-lang="${language}"`)
    .replace(/(<h1 id="block-title"[^>]*>)\s*(<\/h1>)/, (_all, open: string, close: string) => {
      return `${open}${escapeHtml(name)}${close}`;
    });
}

/** The whole answer for one request of the block page: read the block, render the template. */
export async function blockPageHtml(
  template: string,
  request: { url: string; origin?: string },
  api: { url: string; anonKey: string; fetch?: typeof fetch; timeoutMs?: number },
): Promise<string> {
  const url = new URL(request.url);
  const ids = blockIdsFrom(url.searchParams);
  const block = await fetchOgBlock(api, ids);
  return renderBlockPage(
    fillBlockPage(template, block),
    blockMeta(block, { origin: request.origin ?? url.origin, ids }),
  );
}
