// npm run bench:cls (in sdk/): Cumulative Layout Shift of the example page (examples/html, the six
// seeded blocks through the CDN script) in Chromium, on a throwaway local stack. Needs
// `npm run build` first. Writes the "SDK layout shift" section of docs/benchmarks.md
// (`--no-write` prints only). Not part of npm test; the SDK e2e asserts the page does not shift.
import { writeBenchmarkSection } from '../../scripts/bench/docs-section.ts';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import {
  EXAMPLE_TAGS,
  examplePageReady,
  formFirstPage,
  launchRewriting,
  loadedFormHeight,
  measureLayoutShift,
  type ShiftOptions,
} from '../e2e/layout-shift.ts';
import { reservedHeightsCss } from '../src/core/skeleton-heights.ts';

const RUNS = Number(process.env.CLS_RUNS) || 3;
const KO = `document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('${EXAMPLE_TAGS.join(',')}'))
    el.setAttribute('lang', 'ko');
});`;

const CASES = [
  { name: '1440x900, en', viewport: { width: 1440, height: 900 } },
  { name: '375x812, en', viewport: { width: 375, height: 812 } },
  { name: '375x812, ko', viewport: { width: 375, height: 812 }, initScript: KO },
  // all six blocks in view at once (issue 22): every block's shift counts
  { name: '1000x3200, en', viewport: { width: 1000, height: 3200 } },
  { name: '1280x720, en', viewport: { width: 1280, height: 720 } },
  { name: '390x844, en', viewport: { width: 390, height: 844 } },
  { name: '390x844, ko', viewport: { width: 390, height: 844 }, initScript: KO },
].filter((c) => !process.env.CLS_CASES || c.name.includes(process.env.CLS_CASES));
const LATENCIES = [0, 150];
const defer = (html: string) =>
  html.replace('src="/sdk/cdn/reaction.js">', 'src="/sdk/cdn/reaction.js" defer>');
/**
 * The loader as the page has it (in <head>, no defer); deferred, as a host page may have it; and
 * deferred with the reservation the docs give for that case in the page's <head>.
 */
const LOADERS: Array<[string, ((html: string) => string) | undefined]> = (
  [
    ['in head', undefined],
    ['deferred', defer],
    // the docs' snippet for a deferred loader: the reservation in <head>, before the first paint
    [
      'deferred, style in head',
      (html) => defer(html).replace('</head>', `<style>${reservedHeightsCss()}</style></head>`),
    ],
  ] as Array<[string, ((html: string) => string) | undefined]>
).filter(([name]) => !process.env.CLS_LOADER || name === process.env.CLS_LOADER);

/** A long form first on the page (formFirstPage), without and with its height hint. */
const FORM_CASES = CASES.filter((c) => /^(1000x3200|390x844), en$/.test(c.name));

const stack = await startThrowawayStack('cls');
// rewritten pages (the deferred loader, the form first) reach the loopback stack only without
// Local Network Access checks (launchRewriting; before, their every block failed to load)
const browser = await launchRewriting();
const rows: string[] = [];
const formRows: string[] = [];
try {
  const url = stack.webUrl + '/examples/html/index.html';
  /** The layout shift of each of RUNS cold loads of the page. */
  const shifts = async (options: ShiftOptions) => {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push((await measureLayoutShift(browser, url, options)).cls);
    return runs;
  };
  /** A table row: what was measured, the worst run in bold, every run. */
  const row = (cells: string[], runs: number[]) =>
    `| ${cells.join(' | ')} | **${Math.max(...runs).toFixed(3)}** | ${runs.map((r) => r.toFixed(3)).join(', ')} |`;
  const latency = (ms: number) => (ms ? ms + ' ms' : 'none');
  for (const [loader, rewrite] of LOADERS)
    for (const c of CASES)
      for (const latencyMs of LATENCIES) {
        const runs = await shifts({
          viewport: c.viewport,
          latencyMs,
          initScript: c.initScript,
          rewrite,
          ready: examplePageReady,
        });
        rows.push(row([loader, c.name, latency(latencyMs)], runs));
        console.log(rows.at(-1));
      }
  for (const c of FORM_CASES) {
    const hint = await loadedFormHeight(browser, url, c.viewport);
    for (const [label, page] of [
      ['none', formFirstPage()],
      [`${hint} px`, formFirstPage(hint)],
    ] as const)
      for (const latencyMs of LATENCIES) {
        const runs = await shifts({ viewport: c.viewport, latencyMs, ...page });
        formRows.push(row([c.name, label, latency(latencyMs)], runs));
        console.log(formRows.at(-1));
      }
  }
} finally {
  await browser.close();
  await stack.stop();
}

const body = `Measured by \`npm run bench:cls -w @reaction-blocks/sdk\` on ${new Date().toISOString().slice(0, 10)}: the example page
\`examples/html/\` (six seeded blocks through the CDN script) on a fresh local stack, ${RUNS} cold
loads per row in Chromium. CLS is the largest session window of \`layout-shift\` entries (as Chrome
defines it), read by a PerformanceObserver installed before the page's scripts; the load ends when
every block shows its data, plus 1.5 s. "Added latency" delays every request through the DevTools
protocol, so the loading state is on screen for a while, as on a real network. "Loader" is the
CDN script tag as the page has it (in \`<head>\`, no \`defer\`, so its reserved heights apply
before the first paint), deferred (the page may be painted before it runs: the loader then warns in
the console), or deferred with the style docs/embedding.md gives for that case in the page's
\`<head>\` (the same reservation, before the first paint). The SDK e2e fails
when the page (loader in head, 150 ms; 1440x900, 375x812 and 1000x3200) shifts at all (0.001).
Comment and Q&A are panels of a fixed height since issue 22: before that, with all six blocks in
view (1000x3200) the page measured 0.055-0.069 as the comment block grew past its skeleton.

| loader | viewport, language | added latency | worst | each run |
|---|---|---|---|---|
${rows.join('\n')}

A form longer than its skeleton (the seed's six questions: a description, a poll, a long text...;
the skeleton stands for three short ones) moved to the top of the same page, so the rest is under
it and in view when its questions arrive (loader in head). "Hint" is the page's
\`--reaction-form-height\` on the element, set to the form's height at that width as read from a
first load: the loader and the skeleton hold it, so the page under the form stays put.

| viewport, language | hint | added latency | worst | each run |
|---|---|---|---|---|
${formRows.join('\n')}

Before the loading skeletons and the reserved heights (commit e14ea01: a "Loading…" line while
loading, the loader deferred), the same page measured 0.243 (none) and 0.159 (150 ms) at
1440x900, 0.518 at 375x812 in English and 0.518 to 0.667 in Korean.
`;
if (!process.argv.includes('--no-write')) writeBenchmarkSection('SDK layout shift', body);
console.log(body);
