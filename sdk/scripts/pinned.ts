// npm run bench:pinned (in sdk/): what pinning the loader costs a page's first element. Chromium
// against the built CDN files (npm run build first) on a loopback server that answers every
// request after a delay (an emulated round trip), no stack: the time from navigation to
// <reaction-like> defined (before its data), cold, for a page whose script tag does not pin the
// loader, one that pins it (the loader then fetches its release's integrity table before its first
// import), and one that pins it and preloads the table (the docs' snippet). Writes the "SDK pinned
// loader" section of docs/benchmarks.md with --write. Not part of npm test.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { writeBenchmarkSection } from '../../scripts/bench/docs-section.ts';

const RUNS = Number(process.env.PINNED_RUNS) || 7;
const LATENCIES = [0, 50, 150];
const sdk = resolve(import.meta.dirname, '..');
const cdnDir = join(sdk, 'dist/cdn');
const { version } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as {
  version: string;
};
const release = `v${version}`;
if (!existsSync(join(cdnDir, release, 'reaction.js'))) {
  console.error('[pinned] build the SDK first: npm run build -w @reaction-blocks/sdk');
  process.exit(1);
}
const sri = (path: string) =>
  `sha384-${createHash('sha384')
    .update(readFileSync(join(cdnDir, release, path)))
    .digest('base64')}`;
const table = readdirSync(join(cdnDir, release)).find((f) => /^integrity-.*\.js$/.test(f));

type Variant = 'unpinned' | 'pinned' | 'pinned, table preloaded';
const VARIANTS: Variant[] = [
  'unpinned',
  'pinned',
  ...(table ? ['pinned, table preloaded' as const] : []),
];
const page = (
  v: Variant,
  cdn: string,
) => `<!doctype html><html lang="en"><head><title>pinned</title>
${v.endsWith('preloaded') ? `<link rel="preload" as="script" href="${cdn}/${table}" integrity="${sri(table!)}" crossorigin="anonymous">` : ''}
<script src="${cdn}/reaction.js" ${v === 'unpinned' ? '' : `integrity="${sri('reaction.js')}" `}crossorigin="anonymous"
  data-project-url="http://127.0.0.1:9" data-anon-key="k"></script>
</head><body><p>A post.</p><reaction-like block-id="00000000-0000-0000-0000-000000000000"></reaction-like></body></html>`;

let latency = 0;
let requests = 0;
const server = createServer((req, res) => {
  requests++;
  const url = new URL(req.url!, 'http://x');
  setTimeout(() => {
    const m = /^\/page\/(\d)$/.exec(url.pathname);
    if (m) {
      res.setHeader('content-type', 'text/html');
      return res.end(page(VARIANTS[Number(m[1])]!, `/cdn/${release}`));
    }
    const path = join(cdnDir, normalize(url.pathname.replace(/^\/cdn\//, '')));
    if (!url.pathname.startsWith('/cdn/') || !path.startsWith(cdnDir + '/') || !existsSync(path)) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', 'text/javascript');
    res.setHeader('access-control-allow-origin', '*');
    res.end(readFileSync(path));
  }, latency);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const browser = await chromium.launch(chromiumLaunchOptions);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const load = loadavg()[0]!.toFixed(1);
const rows: string[] = [];
try {
  // the variants in turn within each round, so a busy machine's moments fall on all of them
  for (const ms of LATENCIES) {
    latency = ms;
    const times = VARIANTS.map(() => [] as number[]);
    const asked = VARIANTS.map(() => 0);
    for (let r = 0; r < RUNS; r++)
      for (const [i] of VARIANTS.entries()) {
        const ctx = await browser.newContext();
        const tab = await ctx.newPage();
        const before = requests;
        await tab.goto(`${origin}/page/${i}`);
        times[i]!.push(
          await tab.evaluate(() =>
            customElements.whenDefined('reaction-like').then(() => performance.now()),
          ),
        );
        asked[i] = requests - before;
        await ctx.close();
      }
    for (const [i, v] of VARIANTS.entries()) {
      rows.push(
        `| ${ms} ms | ${v} | ${median(times[i]!).toFixed(0)} ms | ${Math.max(...times[i]!).toFixed(0)} ms | ${asked[i]} |`,
      );
      console.log(rows.at(-1));
    }
  }
} finally {
  await browser.close();
  server.close();
}
writeBenchmarkSection(
  'SDK pinned loader',
  `Measured by \`npm run bench:pinned -w @reaction-blocks/sdk -- --write\` on ${new Date().toISOString().slice(0, 10)} (load ${load}): Chromium,
the built \`dist/cdn/${release}\` files from a loopback server that answers each request after the
round trip shown, a page with one \`<reaction-like>\` and the loader in \`<head>\`. The time is from
navigation to the element defined (before its data), cold, ${RUNS} loads a row taken in turn with the other rows of its round trip (median and
worst);
"requests" counts the page and what it loaded until then. A pinned loader (its tag has \`integrity\`)
fetches its release's integrity table before its first import; the docs' snippet can preload it.

| round trip | loader | to defined (median) | worst | requests |
|---|---|---|---|---|
${rows.join('\n')}
`,
);
