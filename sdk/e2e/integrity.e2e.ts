// The CDN files are checked by the browser, not only the loader (issue 21): the pinned loader loads
// its release's integrity table (integrity-<hash>.js, checked by the sha384 the build wrote into
// the loader) and puts it in an import map before its first import, so an element file or chunk
// that the CDN changed is refused, and so is a changed table. Chromium against the built files
// (npm run build first), served as a CDN would serve them, with one file changed on request; no
// stack (the elements define before they ask for data, and these pages never get that far).
// Run: npx tsx e2e/integrity.e2e.ts (in sdk/; npm run e2e runs it first).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, normalize, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { journeySteps } from '../../scripts/journey-steps.ts';

const sdk = resolve(import.meta.dirname, '..');
const cdnDir = join(sdk, 'dist/cdn');
const { version } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as {
  version: string;
};
const release = `v${version}`;
const file = (path: string) => join(cdnDir, release, path);
if (!existsSync(file('reaction.js'))) {
  console.error('[integrity] build the SDK first: npm run build -w @reaction-blocks/sdk');
  process.exit(1);
}
const sri = (alg: string, body: Buffer | string) =>
  `${alg}-${createHash(alg).update(body).digest('base64')}`;
const loaderIntegrity = sri('sha384', readFileSync(file('reaction.js')));
/** The release's integrity table, which only a pinned loader asks for. */
const table = readdirSync(join(cdnDir, release)).find((f) => /^integrity-[\w-]+\.js$/.test(f));
assert.ok(table, `${release} has no integrity table`);
const tableIntegrity = sri('sha384', readFileSync(file(table)));
/** The first chunk a file names (static import or the retrying dynamic one), from the release. */
const chunkOf = (path: string, name: string) => {
  const m = new RegExp(`\\./(?:\\.\\./)?(?:shared/)?(chunks/${name}-[\\w-]+\\.js)`).exec(
    readFileSync(file(path), 'utf8'),
  );
  assert.ok(m, `${path} names no ${name} chunk`);
  return path.startsWith('shared/') ? `shared/${m[1]}` : m[1]!;
};

/**
 * How a file is changed: `byte` changes one byte, its last `;` (before the final line break) to a
 * space: the module still parses and runs the same; `mark` appends a statement that records that
 * it ran; `fail-once` is not changed, but its first request answers 503 (a network failure).
 */
type Tamper = { path: string; how: 'byte' | 'mark' | 'fail-once' } | null;
/** The requests of each case's CDN, with their query: `like.js`, `chunks/ko-x.js?retry=1`. */
const requests = new Map<string, string[]>();
function serveFile(rel: string, tamper: Tamper, seen: string[]): Buffer | string | null | 503 {
  const path = join(cdnDir, normalize(rel));
  if (!path.startsWith(cdnDir + '/') || !existsSync(path)) return null;
  const body = readFileSync(path);
  if (!tamper || rel !== `${release}/${tamper.path}`) return body;
  if (tamper.how === 'fail-once')
    return seen.filter((r) => r.startsWith(tamper.path)).length > 1 ? body : 503;
  if (tamper.how === 'mark')
    return `${body.toString()}\n;(self.__tamperedRan ||= []).push(${JSON.stringify(tamper.path)});`;
  const changed = Buffer.from(body);
  const last = changed.at(-1) === 0x0a ? changed.length - 2 : changed.length - 1;
  if (changed[last] !== 0x3b) return null; // not the file this test expects: a 404 says so
  changed[last] = 0x20;
  return changed;
}

interface PageOptions {
  tags: string[];
  /** The loader's address in the CDN folder (reaction.js: the newest, unversioned). */
  loader?: string;
  lang?: string;
  /** The page has an import map and a module of its own. */
  ownMap?: boolean;
  /** No loader: the page imports this element file itself (no import map). */
  direct?: string;
  /** The page's CSP: scripts from the page's origin, and with `nonce` those with its nonce. */
  csp?: 'self' | 'nonce';
  /** The loader's tag without `integrity` (a page that does not pin it). */
  unpinned?: boolean;
  /** The page preloads the integrity table, as the docs' script tag does. */
  preload?: boolean;
}
const NONCE = 'rb-integrity-test';
const SHOP = '00000000-0000-4000-8000-0000000000c1';
const html = (o: PageOptions, cdn: string) => `<!doctype html><html lang="${o.lang ?? 'en'}">
<head><title>integrity</title>
${o.preload ? `<link rel="preload" as="script" href="${cdn}/${release}/${table}" integrity="${tableIntegrity}" crossorigin="anonymous">` : ''}
${o.ownMap ? '<script type="importmap">{"imports":{"page-own":"/own.js"}}</script><script type="module">import "page-own";</script>' : ''}
${
  o.direct
    ? `<script type="module">import(${JSON.stringify(`${cdn}/${release}/${o.direct}`)});</script>`
    : `<script src="${cdn}/${o.loader ?? `${release}/reaction.js`}" ${o.unpinned ? '' : `integrity="${loaderIntegrity}" `}crossorigin="anonymous"${o.csp === 'nonce' ? ` nonce="${NONCE}"` : ''}
  data-project-url="http://127.0.0.1:9" data-anon-key="k"></script>`
}
</head><body>${o.tags.map((t) => `<reaction-${t} block-id="00000000-0000-0000-0000-000000000000"${o.lang ? ` lang="${o.lang}"` : ''}></reaction-${t}>`).join('')}</body></html>`;

// the page and the "CDN" on one loopback server: /cdn/<case>/... is dist/cdn/..., changed as
// the case says
const tampers = new Map<string, Tamper>();
const pages = new Map<string, PageOptions>();
const server = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  const page = /^\/page\/(\w+)$/.exec(url.pathname);
  if (page && pages.has(page[1]!)) {
    res.setHeader('content-type', 'text/html');
    const csp = pages.get(page[1]!)!.csp;
    if (csp)
      res.setHeader(
        'content-security-policy',
        `script-src 'self'${csp === 'nonce' ? ` 'nonce-${NONCE}'` : ''}`,
      );
    return res.end(html(pages.get(page[1]!)!, `/cdn/${page[1]}`));
  }
  // a Cafe24 shop's main page with our tag (docs/cafe24.md), and the embed it asks for: a like
  // placed on the main page
  const shop = /^\/shop\/(\w+)\/index\.html$/.exec(url.pathname);
  if (shop && pages.has(shop[1]!)) {
    res.setHeader('content-type', 'text/html');
    const o = pages.get(shop[1]!)!;
    const q = `shop=${SHOP}&project=${encodeURIComponent(`${origin}/api`)}&key=k`;
    return res.end(`<!doctype html><html lang="en"><head><title>shop</title>
<script src="/cdn/${shop[1]}/${o.loader}?${q}"></script></head><body><main>Shop</main></body></html>`);
  }
  if (url.pathname === '/api/rest/v1/rpc/get_cafe24_embed') {
    res.setHeader('content-type', 'application/json');
    return res.end(
      JSON.stringify({
        owner_id: SHOP,
        placements: [
          { block_id: SHOP, type: 'like', location: 'main', per_product: false, selector: '' },
        ],
      }),
    );
  }
  if (url.pathname === '/own.js') {
    res.setHeader('content-type', 'text/javascript');
    return res.end('self.ownModuleRan = true;');
  }
  const cdn = /^\/cdn\/(\w+)\/(.+)$/.exec(url.pathname);
  const seen = cdn ? requests.get(cdn[1]!) : undefined;
  seen?.push(cdn![2]!.slice(release.length + 1) + url.search);
  const body = cdn ? serveFile(cdn[2]!, tampers.get(cdn[1]!) ?? null, seen ?? []) : null;
  if (body === null || body === 503) {
    res.statusCode = body ?? 404;
    return res.end();
  }
  res.setHeader('content-type', 'text/javascript');
  res.setHeader('access-control-allow-origin', '*');
  res.end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const browser = await chromium.launch(chromiumLaunchOptions);
const { step, finish } = journeySteps();
let cases = 0;

/** Opens a page of the case; answers it and the console lines it prints. */
async function open(o: PageOptions, tamper: Tamper = null, at = 'page') {
  const id = `c${++cases}`;
  pages.set(id, o);
  tampers.set(id, tamper);
  requests.set(id, []);
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  await page.goto(at === 'shop' ? `${origin}/shop/${id}/index.html` : `${origin}/page/${id}`);
  return { page, consoleLines, requests: requests.get(id)!, close: () => ctx.close() };
}
const defined = (page: Page, tag: string) =>
  page.evaluate((t) => !!customElements.get(t), `reaction-${tag}`);
const whenDefined = (page: Page, tag: string) =>
  page.waitForFunction((t) => !!customElements.get(t), `reaction-${tag}`, { timeout: 60_000 });
/** Waits until a console line matches; answers it. */
async function until(lines: string[], re: RegExp, what: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const line = lines.find((l) => re.test(l));
    if (line) return line;
    if (Date.now() > deadline)
      throw new Error(`no console line ${what} (${re}); saw:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const integrityError = (path: string) =>
  new RegExp(
    `^error: .*integrity.*${path.replace(/[.?]/g, '\\$&')}|${path.replace(/[.?]/g, '\\$&')}.*integrity`,
    'i',
  );

/**
 * Opens a page of the case with one byte of `path` changed and waits for the browser to refuse
 * that file: the console names it, and none of `tags` defines. The page stays open.
 */
async function refused(o: PageOptions, path: string, tags = o.tags, at = 'page') {
  const opened = await open(o, { path, how: 'byte' }, at);
  await until(opened.consoleLines, integrityError(path), `about ${path} failing its integrity`);
  for (const t of tags)
    assert.equal(await defined(opened.page, t), false, `reaction-${t} defined, ${path} changed`);
  return opened;
}

/** The case's requests for the integrity table. */
const tableRequests = (seen: string[]) => seen.filter((r) => r.startsWith('integrity-'));
/**
 * Checks that the table was asked for once, by the page's preload (a `link`, not the loader's
 * script), and that Chromium did not warn about the preload (unused, or not matching).
 */
async function preloadTaken(o: Awaited<ReturnType<typeof open>>) {
  assert.deepEqual(tableRequests(o.requests), [table], 'the table, asked for once');
  const initiators = await o.page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/integrity-[\w-]+\.js$/.test(e.name))
      .map((e) => (e as PerformanceResourceTiming).initiatorType),
  );
  assert.deepEqual(initiators, ['link'], 'fetched by the preload');
  assert.ok(!o.consoleLines.some((l) => /preload/i.test(l)), o.consoleLines.join('\n'));
}

try {
  await step(
    'an untouched release loads: the loader maps its files and the element defines',
    async () => {
      const { page, requests: seen, close } = await open({ tags: ['like'] });
      await whenDefined(page, 'like');
      assert.deepEqual(tableRequests(seen), [table], 'the table, asked for once');
      const map = await page.evaluate(() =>
        [...document.querySelectorAll('script[type=importmap]')].map((s) => s.textContent ?? ''),
      );
      assert.equal(map.length, 1, 'one import map');
      const inMap = (JSON.parse(map[0]!) as { integrity: Record<string, string> }).integrity;
      const likeUrl = `${origin}/cdn/c${cases}/${release}/like.js`;
      assert.equal(inMap[likeUrl], sri('sha256', readFileSync(file('like.js'))), 'like.js hash');
      const ko = `${origin}/cdn/c${cases}/${release}/${chunkOf('like.js', 'ko')}`;
      assert.ok(inMap[ko], 'its dynamic chunks are in the table too');
      await close();
    },
  );

  await step(
    "with the docs' preload of the table: the loader takes the preloaded file (asked for once)",
    async () => {
      const opened = await open({ tags: ['like'], preload: true });
      await whenDefined(opened.page, 'like');
      await preloadTaken(opened);
      await opened.close();
    },
  );

  await step(
    'a loader its page did not pin asks for no table and adds no import map (nothing to prove, and no CSP error)',
    async () => {
      const {
        page,
        consoleLines,
        requests: seen,
        close,
      } = await open({
        tags: ['like'],
        unpinned: true,
        csp: 'self',
      });
      await whenDefined(page, 'like');
      const maps = await page.evaluate(
        () => document.querySelectorAll('script[type=importmap]').length,
      );
      assert.equal(maps, 0, 'no import map');
      assert.deepEqual(tableRequests(seen), [], 'no table');
      assert.deepEqual(
        consoleLines.filter((l) => /Content Security Policy/i.test(l)),
        [],
        'no CSP refusal',
      );
      await close();
    },
  );

  await step(
    'an element file with one byte changed is refused: the element does not define',
    async () => {
      const { consoleLines, close } = await refused({ tags: ['like'] }, 'like.js');
      await until(consoleLines, /\[reaction-blocks\]/, "with the loader's warning");
      await close();
    },
  );

  await step(
    'a table with one byte changed is refused, and so is its retry: no element file is asked for, nothing defines',
    async () => {
      const {
        consoleLines,
        requests: seen,
        close,
      } = await refused({ tags: ['like', 'comment'] }, table);
      await until(consoleLines, integrityError(`${table}?retry=1`), 'about its retry failing too');
      await until(
        consoleLines,
        /\[reaction-blocks\].*blocks are not loaded/,
        "the loader's warning",
      );
      assert.deepEqual(
        seen.filter((r) => !r.startsWith('integrity-')),
        ['reaction.js'],
      );
      await close();
    },
  );

  await step('a table that failed to load once loads on its retry, checked', async () => {
    const {
      page,
      consoleLines,
      requests: seen,
      close,
    } = await open({ tags: ['like'] }, { path: table, how: 'fail-once' });
    await whenDefined(page, 'like');
    assert.deepEqual(tableRequests(seen), [table, `${table}?retry=1`]);
    assert.ok(!consoleLines.some((l) => /integrity/i.test(l)), consoleLines.join('\n'));
    await close();
  });

  await step(
    'the same changed file, imported without the loader, runs (the check refused it, not a syntax error)',
    async () => {
      const { page, close } = await open(
        { tags: ['like'], direct: 'like.js' },
        { path: 'like.js', how: 'byte' },
      );
      await whenDefined(page, 'like');
      await close();
    },
  );

  await step(
    'a shared chunk with one byte changed is refused: neither element of the page defines',
    async () => {
      const chunk = chunkOf('shared/like.js', 'base');
      const { consoleLines, close } = await refused({ tags: ['like', 'comment'] }, chunk);
      await until(
        consoleLines,
        /\[reaction-blocks\].*shared\/(like|comment)\.js/,
        "with the loader's warning",
      );
      await close();
    },
  );

  await step(
    'a changed chunk loaded later (the Korean texts) is refused, and so is its retry at a new address',
    async () => {
      const chunk = chunkOf('like.js', 'ko');
      const { page, consoleLines, close } = await open(
        { tags: ['like'], lang: 'ko' },
        { path: chunk, how: 'mark' },
      );
      await whenDefined(page, 'like');
      await until(consoleLines, integrityError(chunk), `about ${chunk} failing its integrity`);
      await until(consoleLines, integrityError(`${chunk}?retry=1`), 'about its retry failing too');
      assert.equal(
        await page.evaluate(() => (self as { __tamperedRan?: string[] }).__tamperedRan),
        undefined,
      );
      await close();
    },
  );

  await step('the changed chunk, without the check, would have run (the mark works)', async () => {
    const chunk = chunkOf('like.js', 'ko');
    const { page, close } = await open(
      { tags: ['like'], lang: 'ko', direct: 'like.js' },
      { path: chunk, how: 'mark' },
    );
    await page.waitForFunction(
      () => (self as { __tamperedRan?: string[] }).__tamperedRan?.length,
      null,
      { timeout: 60_000 },
    );
    await close();
  });

  await step(
    'a page with an import map of its own: both maps hold (Chromium merges them)',
    async () => {
      const { page, close } = await open({ tags: ['like'], ownMap: true });
      await whenDefined(page, 'like');
      await page.waitForFunction(() => (self as { ownModuleRan?: boolean }).ownModuleRan, null, {
        timeout: 60_000,
      });
      await close();
      const changed = await refused({ tags: ['like'], ownMap: true }, 'like.js');
      await changed.page.waitForFunction(
        () => (self as { ownModuleRan?: boolean }).ownModuleRan,
        null,
        { timeout: 60_000 },
      );
      await changed.close();
    },
  );

  await step(
    'the newest loader (dist/cdn/reaction.js) checks the files of its release folder',
    async () => {
      const ok = await open({ tags: ['like'], loader: 'reaction.js' });
      await whenDefined(ok.page, 'like');
      await ok.close();
      await (await refused({ tags: ['like'], loader: 'reaction.js' }, 'like.js')).close();
    },
  );
  await step(
    "a page whose CSP allows scripts by nonce: the loader's nonce lets its map in, a changed file is refused",
    async () => {
      const { consoleLines, close } = await refused({ tags: ['like'], csp: 'nonce' }, 'like.js');
      assert.ok(
        !consoleLines.some((l) => /Content Security Policy/i.test(l)),
        consoleLines.join('\n'),
      );
      await close();
    },
  );

  await step(
    'a page whose CSP blocks inline scripts: the map is refused, the blocks still load (unchecked)',
    async () => {
      const { page, consoleLines, close } = await open({ tags: ['like'], csp: 'self' });
      await whenDefined(page, 'like');
      await until(consoleLines, /Content Security Policy/i, 'about the map the CSP refused');
      await close();
    },
  );
  // what the retry is for: a chunk that failed on the network loads on the next try, checked
  // where the loader's map is in force, as before where the page's CSP blocked the map
  const koShows = (page: Page) =>
    page.waitForFunction(
      () => /[가-힣]/.test(document.querySelector('reaction-like')?.shadowRoot?.textContent ?? ''),
      null,
      { timeout: 60_000 },
    );
  for (const csp of [undefined, 'self'] as const)
    await step(
      `a chunk that failed to load once loads on the retry${csp ? ' (CSP without the nonce: unchecked, as before)' : ', checked'}`,
      async () => {
        const chunk = chunkOf('like.js', 'ko');
        const {
          page,
          consoleLines,
          requests: seen,
          close,
        } = await open(
          { tags: ['like'], lang: 'ko', ...(csp ? { csp } : {}) },
          { path: chunk, how: 'fail-once' },
        );
        await koShows(page);
        assert.deepEqual(
          seen.filter((r) => r.startsWith(chunk)),
          [chunk, `${chunk}?retry=1`],
        );
        assert.ok(!consoleLines.some((l) => /integrity/i.test(l)), consoleLines.join('\n'));
        await close();
      },
    );
  await step(
    "Cafe24: this release's cafe24.js pins its reaction.js, which pins the elements",
    async () => {
      const shopPage = { tags: [], loader: `${release}/cafe24.js` };
      const ok = await open(shopPage, null, 'shop');
      await whenDefined(ok.page, 'like');
      // cafe24.js preloads the table its reaction.js asks for: one request, taken by the loader
      await preloadTaken(ok);
      await ok.close();
      for (const path of ['reaction.js', table, 'like.js'])
        await (await refused(shopPage, path, ['like'], 'shop')).close();
    },
  );
} finally {
  await browser.close();
  server.close();
}
finish();
