/**
 * The Cafe24 loader (docs/cafe24.md): the script tag our jobs queue installs in a Cafe24 mall
 * through the Admin API (`cafe24.js?shop=<id>&project=<url>&key=<anon key>`; a script tag has no
 * attributes, so the settings are in its query). On a product page or the main page it asks which
 * blocks the owner placed there (get_cafe24_embed, a cacheable GET), puts their elements after
 * the place each names (or the screen's usual place), with `page-key="cafe24:product:<no>"` where
 * the block keeps a thread per product, and loads reaction.js beside itself, which loads the
 * elements. Never throws into the shop's page; safe when loaded twice.
 */

import { reservedHeightsCss } from '../core/skeleton-heights.js';

interface Placement {
  block_id: string;
  type: string;
  location: 'product_detail' | 'main';
  per_product: boolean;
  selector: string;
}

interface Embed {
  owner_id: string | null;
  placements: Placement[];
}

/** Set by the build: this release's folder, v<version> (not set in the unit test). */
declare const __RB_CDN_DIR__: string | undefined;
/** Set by the build: the integrity (sha384) of this release's reaction.js. */
declare const __RB_LOADER_INTEGRITY__: string | undefined;
/** Set by the build: the name and sha384 of this release's integrity table, which that loader asks for. */
declare const __RB_INTEGRITY__: [file: string, integrity: string] | undefined;

interface LoaderWindow extends Window {
  __reactionBlocksCafe24?: boolean;
  __reactionBlocksLoader?: boolean;
}

/**
 * The product number of a Cafe24 product page, from its address: `/product/detail.html?product_no=12`,
 * the search-friendly `/product/<name>/12/category/4/display/1/`, both under `/m/` (the mobile
 * skin) or another prefix; null elsewhere.
 */
export function cafe24ProductNo(loc: { pathname: string; search: string }): number | null {
  let no: string | null = null;
  if (/(?:^|\/)product\/detail\.html$/.test(loc.pathname))
    no = new URLSearchParams(loc.search).get('product_no');
  else no = /(?:^|\/)product\/[^/]+\/(\d+)(?:\/|$)/.exec(loc.pathname)?.[1] ?? null;
  return no && /^\d{1,12}$/.test(no) ? Number(no) : null;
}

/** The screen of a page: product_detail, main (`/`, `/m/` or an `index.html`), or null. */
export function cafe24Screen(loc: {
  pathname: string;
  search: string;
}): 'product_detail' | 'main' | null {
  if (cafe24ProductNo(loc) !== null) return 'product_detail';
  return /^(?:\/m)?\/$|(?:^|\/)index\.html$/.test(loc.pathname) ? 'main' : null;
}

/** Where a screen's blocks go when the owner named no place: after these, the first found. */
const DEFAULT_PLACES: Record<Placement['location'], string[]> = {
  product_detail: ['#prdDetail', '.xans-product-detail', '#contents', 'main'],
  main: ['#contents', 'main'],
};

function placeFor(doc: Document, p: Placement): Element | null {
  for (const selector of p.selector ? [p.selector] : DEFAULT_PLACES[p.location]) {
    try {
      const found = doc.querySelector(selector);
      if (found) return found;
    } catch {
      // not a selector this browser knows: the default place instead
    }
  }
  return p.selector ? placeFor(doc, { ...p, selector: '' }) : null;
}

/**
 * The elements for a screen's placements, each after its place (several after one place keep
 * their order). Answers how many were placed.
 */
export function placeBlocks(
  doc: Document,
  embed: Embed,
  screen: Placement['location'],
  productNo: number | null,
  project: { url: string; key: string },
): number {
  const after = new Map<Element, Element>();
  let n = 0;
  for (const p of embed.placements) {
    if (p.location !== screen || !embed.owner_id || !/^[a-z]+$/.test(p.type)) continue;
    // a thread per product needs the product: without it, show nothing rather than one thread
    if (p.per_product && productNo === null) continue;
    const place = placeFor(doc, p);
    if (!place) continue;
    const el = doc.createElement('reaction-' + p.type);
    el.setAttribute('owner-id', embed.owner_id);
    el.setAttribute('block-id', p.block_id);
    if (p.per_product) el.setAttribute('page-key', 'cafe24:product:' + productNo);
    el.setAttribute('project-url', project.url);
    el.setAttribute('anon-key', project.key);
    el.setAttribute('data-cafe24', p.location);
    (after.get(place) ?? place).after(el);
    after.set(place, el);
    n++;
  }
  return n;
}

(() => {
  const w = window as LoaderWindow;
  if (w.__reactionBlocksCafe24) return;
  w.__reactionBlocksCafe24 = true;
  const warn = (...a: unknown[]) => console.warn('[reaction-blocks]', ...a);
  try {
    const script = document.currentScript as HTMLScriptElement | null;
    if (!script) return;
    const src = new URL(script.src);
    const q = src.searchParams;
    const shop = q.get('shop') || '';
    const project = { url: (q.get('project') || '').replace(/\/+$/, ''), key: q.get('key') || '' };
    if (!/^[0-9a-f-]{36}$/.test(shop) || !/^https?:\/\//.test(project.url) || !project.key)
      return warn('cafe24.js: missing shop, project or key');
    const screen = cafe24Screen(location);
    if (!screen) return;
    const productNo = cafe24ProductNo(location);
    const base = script.src.replace(/[?#].*$/, '').replace(/[^/]*$/, '');
    fetch(`${project.url}/rest/v1/rpc/get_cafe24_embed?p_shop=${shop}`, {
      headers: { apikey: project.key, Authorization: 'Bearer ' + project.key },
    })
      .then((r) => (r.ok ? (r.json() as Promise<Embed>) : null))
      .then((embed) => {
        // the blocks go in at their skeleton's height (the loader's reservation, before it
        // runs): the shop's page moves once as they are placed, not again when their code arrives
        const style = document.createElement('style');
        style.textContent = reservedHeightsCss();
        document.head.prepend(style);
        if (!embed || !placeBlocks(document, embed, screen, productNo, project)) return;
        if (w.__reactionBlocksLoader) return;
        const s = document.createElement('script');
        s.src = base + 'reaction.js';
        // This release's cafe24.js, which a deployment pins (CAFE24_LOADER_INTEGRITY), pins the
        // loader beside it, which pins the elements; the newest, unversioned one loads whichever
        // reaction.js is newest beside it.
        if (typeof __RB_LOADER_INTEGRITY__ == 'string' && base.endsWith(`/${__RB_CDN_DIR__}/`)) {
          s.integrity = __RB_LOADER_INTEGRITY__;
          s.crossOrigin = 'anonymous';
          // the pinned loader asks for its table of hashes before its first import: preloaded
          // now, it comes beside the loader instead of one round trip after it
          if (typeof __RB_INTEGRITY__ == 'object') {
            const l = document.createElement('link');
            l.rel = 'preload';
            l.as = 'script';
            l.href = base + __RB_INTEGRITY__[0];
            l.integrity = __RB_INTEGRITY__[1];
            l.crossOrigin = 'anonymous';
            document.head.append(l);
          }
        }
        s.dataset.projectUrl = project.url;
        s.dataset.anonKey = project.key;
        document.head.append(s);
      })
      .catch(warn);
  } catch (e) {
    warn(e);
  }
})();
