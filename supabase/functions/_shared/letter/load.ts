// Page to letter: one pipeline for the three sources.
//   source (Notion's page-chunk API | a Brunch article | a Typedream page, fetched through the
//   SSRF guard) -> the block model -> (render.ts) fitted within one email -> the kept parts'
//   images copied somewhere lasting -> the 600 px table, CSS inlined, sanitised, text part.
// Notion's image URLs are signed and expire within hours, and the other hosts may move or
// block hot-linking, so the images of a mode's own hosts are copied (Supabase Storage); other
// https images stay as they are (nothing is fetched from a host outside the mode's list).
import type {
  TLeftOut,
  TLetterBlock,
  TLetterMode,
  TLetterModel,
} from '@reaction-blocks/contracts/letters';
import {
  FetchRefused,
  guardedFetch,
  hostRule,
  type GuardDeps,
  type GuardPolicy,
} from './fetch-guard.ts';
import { brunchToBlocks, typedreamToBlocks } from './html-source.ts';
import { loadNotionPage } from './notion.ts';
import { letterFitter, type RenderedLetter } from './render.ts';
import type { LetterSanitizeOptions } from './sanitize-letter.ts';

/** The hosts each mode's pages are fetched from (the Notion page itself is never fetched). */
export const PAGE_HOSTS: Record<TLetterMode, readonly string[]> = {
  notion: ['.notion.site'],
  typedream: ['.typedream.app'],
  brunch: ['brunch.co.kr'],
};

/** The hosts whose images are copied (Notion's files, Kakao's CDN, Typedream's). */
export const IMAGE_HOSTS: Record<TLetterMode, readonly string[]> = {
  notion: [
    'file.notion.so',
    'www.notion.so',
    'secure.notion-static.com',
    '.amazonaws.com',
    'images.unsplash.com',
  ],
  brunch: ['.daumcdn.net'],
  typedream: ['api.typedream.com', '.typedream.app'],
};

export const PAGE_POLICY = (mode: TLetterMode): GuardPolicy => ({
  allowHost: hostRule(PAGE_HOSTS[mode]),
  maxBytes: 3 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  accept: (type) => type === 'text/html' || type === 'application/xhtml+xml',
});

const IMAGE_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export const IMAGE_POLICY = (mode: TLetterMode): GuardPolicy => ({
  allowHost: hostRule(IMAGE_HOSTS[mode]),
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  accept: (type) => type in IMAGE_TYPES,
});

/** At most this many images are copied per letter. */
export const MAX_COPIED_IMAGES = 40;

export interface LoadDeps {
  guard: GuardDeps;
  notionApiBaseUrl: string;
  /** Stores an image for good; answers its public URL. */
  storeImage(bytes: Uint8Array, contentType: string, extension: string): Promise<string>;
}

export class LoadError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Copies the mode's images to storage; other https images stay; anything else is dropped. */
export async function copyImages(
  blocks: TLetterBlock[],
  mode: TLetterMode,
  deps: LoadDeps,
): Promise<{ blocks: TLetterBlock[]; warnings: string[] }> {
  const policy = IMAGE_POLICY(mode);
  const warnings: string[] = [];
  const copies = new Map<string, Promise<string | null>>();
  let copied = 0;
  const copy = (src: string): Promise<string | null> => {
    if (!copies.has(src)) {
      copies.set(
        src,
        (async () => {
          if (copied >= MAX_COPIED_IMAGES) return null;
          copied++;
          try {
            const got = await guardedFetch(src, policy, deps.guard, { accept: 'image/*' });
            const extension = IMAGE_TYPES[got.contentType]!;
            const name = `${(await sha256(got.body)).slice(0, 40)}.${extension}`;
            return await deps.storeImage(got.body, got.contentType, name);
          } catch (err) {
            const reason = err instanceof FetchRefused ? err.reason : 'store';
            warnings.push(`image dropped (${reason}): ${(err as Error).message}`.slice(0, 300));
            return null;
          }
        })(),
      );
    }
    return copies.get(src)!;
  };

  const out: TLetterBlock[] = [];
  for (const block of blocks) {
    if (block.type !== 'image') {
      out.push(block);
      continue;
    }
    const url = URL.parse(block.src);
    if (!url) continue;
    if (policy.allowHost(url.hostname.toLowerCase())) {
      const stored = await copy(block.src);
      if (stored) out.push({ ...block, src: stored });
    } else if (url.protocol === 'https:') {
      out.push(block);
    }
  }
  return { blocks: out, warnings };
}

export interface LoadedLetter {
  title: string;
  /** The parts that fit in one email, their images copied. */
  model: TLetterModel;
  /** Its mail (HTML and text part), as letterFitter checked it. */
  rendered: RenderedLetter;
  warnings: string[];
  /** What the page had that the letter does not carry; `cutAt` when the letter ends early. */
  leftOut: TLeftOut;
}

/**
 * Loads a page of a mode as a letter within one email. The fit comes before the copies, so a
 * page too long for one email has only its kept parts' images fetched and stored (before, every
 * image of the page was, then the parts after the cut were dropped). A copy's address is not the
 * source's (longer or shorter), a copy that fails drops its image, and the sanitiser lets a
 * storage address through that it did not before: the copied letter is checked again, and cut
 * again in the rare case it no longer fits (then some copies were made for nothing).
 */
export async function loadLetter(
  mode: TLetterMode,
  pageUrl: URL,
  deps: LoadDeps,
  opts: LetterSanitizeOptions = {},
): Promise<LoadedLetter> {
  let loaded: { title: string; blocks: TLetterBlock[]; leftOut: TLeftOut };
  try {
    if (mode === 'notion') {
      loaded = await loadNotionPage(pageUrl, {
        apiBaseUrl: deps.notionApiBaseUrl,
        timeoutMs: 10_000,
      });
    } else {
      const page = await guardedFetch(pageUrl.href, PAGE_POLICY(mode), deps.guard, {
        accept: 'text/html',
      });
      const html = new TextDecoder().decode(page.body);
      const finalUrl = new URL(page.url);
      loaded =
        mode === 'brunch' ? brunchToBlocks(html, finalUrl) : typedreamToBlocks(html, finalUrl);
    }
  } catch (err) {
    if (err instanceof FetchRefused) throw new LoadError(err.message, `fetch_${err.reason}`);
    throw new LoadError((err as Error).message, 'load_failed');
  }
  if (loaded.blocks.length === 0) throw new LoadError('the page has no content', 'empty_page');
  // the title becomes the mail's subject, one line (ZSaveLetter refuses line breaks)
  const title = loaded.title.replace(/\s+/g, ' ').trim();
  const fit = letterFitter(title, opts);
  const source: TLetterModel = {
    version: 1,
    source: { mode, url: pageUrl.href },
    blocks: loaded.blocks,
    cta: null,
    imageButton: null,
  };
  const first = fit(source);
  const { blocks, warnings } = await copyImages(first.model.blocks, mode, deps);
  const unchanged =
    blocks.length === first.model.blocks.length &&
    blocks.every((block, i) => block === first.model.blocks[i]);
  const fitted = unchanged ? first : fit({ ...first.model, blocks });
  const cut = first.cutAt !== null || fitted.cutAt !== null;
  return {
    title,
    model: fitted.model,
    rendered: fitted.rendered,
    warnings,
    // a letter cut for size says how many parts it kept, as a page cut at 400 parts does
    leftOut: cut ? { ...loaded.leftOut, cutAt: fitted.model.blocks.length } : loaded.leftOut,
  };
}
