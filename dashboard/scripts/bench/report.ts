// The "Dashboard" section of docs/benchmarks.md, from one benchmark run (and the saved baseline).
import { JS_BUDGETS_KB } from './budgets.ts';
import { chunkName, type Transfer } from './transfer.ts';
import { CPU_SLOWDOWN, median, MOBILE_SCREEN, SLOW_4G, type Vitals } from './web-vitals.ts';

export interface BenchResult {
  date: string;
  cores: number;
  landing: Transfer;
  login: Transfer;
  dashboard: Transfer;
  /** The same page for the seeded demo owner (15 blocks); absent from older saved runs. */
  demoDashboard?: Transfer;
  workspace: Transfer | null;
  vitals: Vitals[];
}

/** Wraps a prose paragraph at `width` columns, like the hand-written sections of the file. */
export function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

function jsChunks(transfer: Transfer, exclude: Set<string> = new Set()): string {
  return transfer.assets
    .filter((a) => a.kind === 'js' && !exclude.has(a.path))
    .sort((a, b) => b.gzip - a.gzip)
    .map((a) => `${chunkName(a.path)} ${kb(a.gzip)}`)
    .join(', ');
}

function pageRow(name: string, now: Transfer, before?: Transfer | null, budgetKb?: number): string {
  const was = (bytes: number | undefined) => (before && bytes !== undefined ? kb(bytes) : '-');
  const budget = budgetKb === undefined ? '-' : `${budgetKb} KB`;
  return `| ${name} | ${kb(now.bytes.js)} | ${budget} | ${was(before?.bytes.js)} | ${kb(now.bytes.css)} | ${was(before?.bytes.css)} | ${kb(now.bytes.html)} | ${was(before?.bytes.html)} | ${jsChunks(now)} |`;
}

/** Chunks the workspace loads that the dashboard did not (what opening a block adds). */
function workspaceExtra(dashboard: Transfer, workspace: Transfer) {
  const seen = new Set(dashboard.assets.map((a) => a.path));
  const extra = workspace.assets.filter((a) => a.kind === 'js' && !seen.has(a.path));
  return { bytes: extra.reduce((sum, a) => sum + a.gzip, 0), chunks: jsChunks(workspace, seen) };
}

function vitalsRows(now: Vitals[], before: Vitals[] | null): string[] {
  const metrics: [string, (v: Vitals) => number, (n: number) => string][] = [
    ['First Contentful Paint', (v) => v.fcp, ms],
    ['Largest Contentful Paint', (v) => v.lcp, ms],
    ['Total Blocking Time', (v) => v.tbt, ms],
    ['Cumulative Layout Shift', (v) => v.cls, (n) => n.toFixed(3)],
  ];
  return metrics.map(([name, pick, fmt]) => {
    const runs = now.map(pick);
    const was = before ? fmt(median(before.map(pick))) : '-';
    return `| ${name} | **${fmt(median(runs))}** | ${was} | ${runs.map(fmt).join(', ')} |`;
  });
}

export function renderReport(
  result: BenchResult,
  baseline: (BenchResult & { label: string }) | null,
  runs: number,
): string {
  const lines: string[] = [];
  lines.push(
    wrap(
      `Measured by \`npm run bench -w @reaction-blocks/dashboard\` on ${result.date}, ${result.cores} cores, from \`dashboard/dist\`` +
        ' (build first). The script starts a throwaway local stack that serves the build, puts a gzip' +
        ' proxy in front of it (a static host compresses; the local server does not), loads each page' +
        ' in the local Chromium with an empty cache, and adds up the gzip -9 size of every HTML, CSS and' +
        ' JS file the page actually requested until the network went quiet (so lazy chunks loaded after' +
        ' the first paint, such as supabase-js, count; chunks never requested do not). The signed-in' +
        ' pages are measured after signing in through the local Google page and accepting the terms.' +
        ' The prerendered landing pages carry their stylesheet inline, so it counts as HTML there.',
    ),
  );
  if (baseline) {
    lines.push(
      '',
      wrap(
        `"Before" is the same script on ${baseline.date} against the build before the landing` +
          ' was prerendered (saved in `dashboard/scripts/bench-baseline.json`). Then the landing' +
          ' painted only after its JS (React, router, i18next and the app, about 112 KB gzip) had' +
          ' loaded and run; now the HTML paints by itself and the same JS loads and hydrates' +
          ' afterwards. That is also why Total Blocking Time, counted from the first paint, went' +
          ' up: the script work that used to come before the paint now comes after it.',
      ),
    );
  }
  lines.push(
    '',
    '### What each page loads (gzip)',
    '',
    '| page | JS | JS budget | JS before | CSS | CSS before | HTML | HTML before | JS chunks |',
    '|---|---|---|---|---|---|---|---|---|',
    pageRow('landing home `/`', result.landing, baseline?.landing, JS_BUDGETS_KB.landing),
    pageRow('`/login`', result.login, baseline?.login, JS_BUDGETS_KB.login),
    pageRow(
      'block dashboard `/dashboard/reaction`',
      result.dashboard,
      baseline?.dashboard,
      JS_BUDGETS_KB.dashboard,
    ),
  );
  if (result.demoDashboard)
    lines.push(
      pageRow(
        'block dashboard, the demo owner (15 blocks, 12 listed, paid plan)',
        result.demoDashboard,
        baseline?.demoDashboard,
        JS_BUDGETS_KB.demoDashboard,
      ),
    );
  if (result.workspace) {
    const extra = workspaceExtra(result.dashboard, result.workspace);
    lines.push(
      pageRow('block workspace `/work/{id}` (form block)', result.workspace, baseline?.workspace),
      `| workspace on top of the dashboard | ${kb(extra.bytes)} | - | - | - | - | - | - | ${extra.chunks} |`,
    );
  } else {
    lines.push('| block workspace `/work/{id}` | not routed in this build | | | | | | | |');
  }
  lines.push(
    '',
    `### Landing home, Lighthouse-style (median of ${runs} cold loads)`,
    '',
    wrap(
      "Chromium with Lighthouse's mobile preset applied through the DevTools protocol, as Lighthouse's" +
        ' "devtools" throttling does it: `Emulation.setCPUThrottlingRate` ' +
        `${CPU_SLOWDOWN}x, \`Network.emulateNetworkConditions\` with ${SLOW_4G.latencyMs} ms request` +
        ` latency, ${SLOW_4G.downloadKbps.toFixed(0)} kbit/s down and ${SLOW_4G.uploadKbps.toFixed(0)} kbit/s up` +
        " (slow 4G: 150 ms RTT and 1.6 Mbit/s with Lighthouse's adjustment factors)," +
        ` a ${MOBILE_SCREEN.width}x${MOBILE_SCREEN.height} screen at ${MOBILE_SCREEN.deviceScaleFactor}x.` +
        ' Each load is a new browser context (empty cache, new connections). The figures come from the' +
        " browser's own PerformanceObserver entries: FCP from `paint`, LCP from the last" +
        ' `largest-contentful-paint` entry, CLS as the largest session window of `layout-shift`, TBT as' +
        ' the sum of the part over 50 ms of every long task after FCP, watched until 5 s pass with no' +
        ' long task. This is not Lighthouse itself (no simulated throttling, no scoring); it is for' +
        ' comparing builds on the same machine.',
    ),
    '',
    '| metric | median | before | each run |',
    '|---|---|---|---|',
    ...vitalsRows(result.vitals, baseline?.vitals ?? null),
  );
  return lines.join('\n');
}
