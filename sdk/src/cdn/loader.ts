/**
 * The CDN script: `<script src=".../reaction.js" data-project-url=".." data-anon-key=".." defer>`.
 * It holds no element code. It looks for reaction-* tags and imports a chunk only for the tags the
 * page uses: one tag type loads that element's self-contained chunk; several load each type's
 * file in shared/, which share Lit and the core as chunks (each type's code once, Lit once), or
 * six.js, all six in one file, when that weighs less; reaction-block loads block.js, the viewer
 * with all six. reaction-count, the one element without Lit, always loads its own small chunk.
 * Safe when loaded twice.
 *
 * Pinned by the page's script tag (`integrity`), it pins in turn every file it brings in: it asks
 * for its release's integrity table (integrity-<hash>.js beside the element files, a classic script
 * checked by the sha384 the build writes into the loader), and before its first import it adds an
 * import map whose `integrity` holds each file of its release, so the browser refuses an element
 * file or chunk that a CDN changed. An unpinned loader asks for no table and adds no map. Browsers
 * without integrity in import maps load the files unchecked (docs/security.md).
 */
import { SKELETON_HEIGHTS, reservedHeightsCss } from '../core/skeleton-heights.js';

interface LoaderWindow extends Window {
  __reactionBlocksLoader?: boolean;
  /** The chunks' retry of an import that failed (retryingImports in rollup.config.mjs). */
  __reactionBlocksRetry?: (url: string) => Promise<unknown>;
  /** Called by this release's integrity table (integrity-<hash>.js) with the table. */
  __reactionBlocksIntegrity?: (table: Record<string, string>) => void;
}

/** Set by the build: this release's folder, v<version> (not set in the loader's unit test). */
declare const __RB_CDN_DIR__: string | undefined;
/**
 * Set by the build: the file beside the release's files that holds the integrity of each file the
 * loader may bring in, and that file's own integrity (not set in the loader's unit test).
 */
declare const __RB_INTEGRITY__: [file: string, integrity: string] | undefined;

(() => {
  const w = window as LoaderWindow;
  if (w.__reactionBlocksLoader) return;
  w.__reactionBlocksLoader = true;
  const script = document.currentScript as HTMLScriptElement | null;
  // The elements of the loader's own release: the folder it is in when it is that release's copy
  // (dist/cdn/v<version>/reaction.js), else the release's folder beside it (dist/cdn/reaction.js).
  const here = script ? script.src.replace(/[^/]*$/, '') : '';
  const dir = typeof __RB_CDN_DIR__ === 'string' ? __RB_CDN_DIR__ : '';
  const base = !dir || here.endsWith(`/${dir}/`) ? here : `${here}${dir}/`;
  const data = script ? script.dataset : {};
  const cfg = (w.ReactionBlocks = w.ReactionBlocks || {});
  if (data.projectUrl) cfg.projectUrl = data.projectUrl;
  if (data.anonKey) cfg.anonKey = data.anonKey;
  if (data.dashboardUrl) cfg.dashboardUrl = data.dashboardUrl;

  const warn = (...a: unknown[]) => console.warn('[reaction-blocks]', ...a);
  // Every file of the release by its address, with its integrity; an import map holds them from
  // just before the first import, when the page's own import maps (parsed by then) are in place.
  // Only for a loader its page pinned (`integrity` on its tag): checking the files an unpinned
  // loader brings in proves nothing (whoever could change them could change the loader), and the
  // map is an inline script, which a page's CSP without our nonce refuses with a console error.
  // A browser without import maps would not apply the map: it loads the files unchecked, as before.
  const integrity: Record<string, string> = {};
  // The table is a classic script beside the release's files, asked for now (the first import
  // waits for it) with the integrity the build wrote here, so the browser checks its bytes as it
  // checks the loader's: a script, not fetch(), since a page's CSP allows our origin in
  // script-src already, and it starts no module load (a browser that takes one import map takes
  // none after one). It fails closed: a table that does not load (changed: refused; or the
  // network, once more) loads no block, or anyone who could block it would have the files run
  // unchecked.
  let ready: Promise<unknown> = Promise.resolve();
  if (
    script?.integrity &&
    HTMLScriptElement.supports?.('importmap') &&
    typeof __RB_INTEGRITY__ == 'object'
  ) {
    const [file, hash] = __RB_INTEGRITY__;
    w.__reactionBlocksIntegrity = (table) => {
      for (const f in table) integrity[base + f] = table[f]!;
    };
    ready = new Promise((resolve) => {
      const get = (again: string) => {
        const s = document.createElement('script');
        s.src = base + file + again;
        s.integrity = hash;
        s.crossOrigin = 'anonymous';
        s.nonce = script.nonce || '';
        s.onload = resolve;
        s.onerror = () =>
          again ? warn(`${s.src} did not load: the blocks are not loaded`) : get('?retry=1');
        document.head.append(s);
      };
      get('');
    });
  }
  let mapped = 0;
  // set when the first map is not in force: the page's CSP blocked it, or the browser refused it
  // (one that takes a single import map, on a page that has its own): nothing is checked then
  let unchecked = 0;
  const importMap = (map: object) => {
    const s = document.createElement('script');
    s.type = 'importmap';
    // a page whose CSP allows its scripts by nonce allows the map by the loader's
    s.nonce = script?.nonce || '';
    s.textContent = JSON.stringify(map);
    document.head.append(s);
    return s;
  };
  // A chunk that failed to load is asked for again at a new address (the browser keeps the
  // failure for the page's life): the new address gets the file's integrity in an import map of
  // its own, under a name only that map gives, so where the map is not taken (a browser that
  // does not merge import maps) the retry fails instead of loading the file unchecked. Where the
  // first map was not in force either, the retry is as unchecked as the first try was.
  let tries = 0;
  w.__reactionBlocksRetry = (u) => {
    const again = `${u}?retry=${++tries}`;
    if (unchecked || !integrity[u]) return import(again);
    const name = `reaction-blocks-retry-${tries}`;
    importMap({ imports: { [name]: again }, integrity: { [again]: integrity[u] } });
    return import(name);
  };

  const TAGS = Object.keys(SKELETON_HEIGHTS);
  // Run after the page's first paint (defer, async, the end of <body>) with blocks already laid
  // out and nothing reserving their height: each one pushes the page down once, now. Say so.
  if (
    performance.getEntriesByType?.('paint').length &&
    [...document.querySelectorAll(TAGS.map((t) => `reaction-${t}:not(:defined)`).join())].some(
      (el) => getComputedStyle(el).display == 'inline',
    )
  )
    warn(
      'reaction.js ran after the page was painted: blocks move it. Load it in <head> without defer (docs: embedding)',
    );

  // Until its code arrives, each tag keeps the height of the skeleton it will show, so neither
  // the code nor (for a block of the usual shape) the data moves the page.
  const style = document.createElement('style');
  style.textContent = reservedHeightsCss();
  document.head.prepend(style);

  const started: Record<string, 1> = {};
  const load = (file: string) => {
    started[file] = 1;
    void ready.then(() => {
      if (!mapped++ && integrity[base + file + '.js']) {
        const s = importMap({ integrity });
        s.onerror = s.onsecuritypolicyviolation = () => (unchecked = 1);
      }
      import(base + file + '.js').catch((e) => warn(e));
    });
  };
  const scan = () => {
    // <reaction-count> has a small chunk of its own (no Lit), whatever else the page has
    if (
      !started.count &&
      !customElements.get('reaction-count') &&
      document.querySelector('reaction-count')
    )
      load('count');
    if (started.block) return;
    const need = TAGS.filter(
      (t) =>
        !started[t] &&
        !customElements.get('reaction-' + t) &&
        document.querySelector('reaction-' + t),
    );
    // <reaction-block>: block.js (the viewer and all six). A page with a form and a comment or Q&A,
    // the two largest: six.js, all six in one file, lighter than their files in shared/, where each
    // file gzips on its own (npm run size: the rows of six.js and of all six in shared/). Several
    // types otherwise, or one more on a page already using shared/: their files there.
    if (need.includes('block')) load('block');
    else if (need.includes('form') && /comment|qna/.test(need.join())) {
      for (const t of TAGS) if (t != 'block') started[t] = 1;
      load('six');
    } else if (need.length > 1 || started.shared)
      for (const t of need) {
        started[t] = started.shared = 1;
        load('shared/' + t);
      }
    else if (need[0]) load(need[0]);
  };
  const watch = () => {
    scan();
    let queued = 0;
    new MutationObserver(() => {
      if (!queued) {
        queued = 1;
        setTimeout(() => {
          queued = 0;
          scan();
        });
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  };
  // While the page is still parsing, wait: seeing all tags at once avoids loading Lit twice.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
})();
