// Dashboard performance benchmark. Builds nothing: run `npm run build -w @reaction-blocks/dashboard`
// first. Starts a throwaway local stack (free ports, temporary database) that serves dashboard/dist,
// puts a gzip proxy in front of it, and drives the local Chromium to measure
//   - the gzip JS/CSS/HTML each page actually requests: landing home, /login, and, signed in
//     through the local Google page, the block dashboard (a new owner's and the seeded demo
//     owner's) and the block workspace;
//   - Lighthouse-style figures of the landing home (FCP, LCP, TBT, CLS), median of cold loads
//     under slow 4G and a 4x slower CPU.
// Then writes the "Dashboard" section of docs/benchmarks.md.
//   npm run bench -w @reaction-blocks/dashboard [-- --runs 3] [-- --save-baseline]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { format } from 'prettier';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { writeBenchmarkSection } from '../../scripts/bench/docs-section.ts';
import { startGzipProxy } from './bench/gzip-proxy.ts';
import { renderReport, type BenchResult } from './bench/report.ts';
import { recordColdLoad, recordTransfer, type Transfer } from './bench/transfer.ts';
import { measureColdLoad, type Vitals } from './bench/web-vitals.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const baselineFile = join(here, 'bench-baseline.json');

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
const saveBaseline = args.includes('--save-baseline');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a positive whole number');
if (!existsSync(join(dist, 'index.html'))) {
  console.error('dashboard/dist is missing: run `npm run build -w @reaction-blocks/dashboard`');
  process.exit(1);
}

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const DEMO_OWNER = { email: 'demo@reaction-blocks.local', name: 'Demo Owner' };

/** Prints what a page logs as an error (a hydration mismatch would show here). */
function reportErrors(page: Page) {
  page.on('pageerror', (error) => console.warn(`page error on ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error')
      console.warn(`console error on ${page.url()}: ${message.text()}`);
  });
}

/** A page in a fresh context: empty cache, no session. */
async function coldPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  reportErrors(page);
  return page;
}

async function measurePublicPage(
  browser: Browser,
  base: string,
  path: string,
  ready: (page: Page) => Promise<void>,
): Promise<Transfer> {
  const page = await coldPage(browser);
  try {
    return await recordTransfer(page, base, async () => {
      await page.goto(`${base}${path}`);
      await ready(page);
    });
  } finally {
    await page.context().close();
  }
}

/** Signs in as this person through the local Google stand-in page. */
async function signIn(page: Page, base: string, person: { email: string; name: string }) {
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.locator('#email').fill(person.email);
  await page.locator('#name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/dashboard\/reaction/);
}

/** A new owner accepts the terms on the first visit. */
async function acceptTerms(page: Page) {
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree' }).click();
  await page.getByRole('dialog', { name: 'Terms of Service' }).waitFor({ state: 'detached' });
}

/**
 * The seeded demo owner (supabase/seed/): a paid plan, 15 blocks of all nine types, tags and
 * their history; the dashboard's worst realistic first load beside the new owner's empty one.
 */
async function measureDemoOwner(browser: Browser, base: string): Promise<Transfer> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  reportErrors(page);
  try {
    await signIn(page, base, DEMO_OWNER);
    const transfer = await recordColdLoad(page, base, '/dashboard/reaction', (p) =>
      p.getByTestId('block-card').first().waitFor(),
    );
    console.log(`demo owner: ${await page.getByTestId('block-card').count()} block cards`);
    return transfer;
  } finally {
    await context.close();
  }
}

async function measureSignedIn(browser: Browser, base: string) {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  reportErrors(page);
  try {
    await signIn(page, base, { email: 'bench-owner@example.com', name: 'Bench Owner' });
    await acceptTerms(page);
    const dashboard = await recordColdLoad(page, base, '/dashboard/reaction', (p) =>
      p.getByTestId('remaining').waitFor(),
    );

    // Create a form block (the type with the most editors); the app then opens /work/{id}.
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.getByRole('button', { name: 'Create block' }).click();
    await page.getByRole('button', { name: 'Form', exact: true }).click();
    const findWork = () =>
      visited.map((u) => new URL(u)).find((u) => u.pathname.startsWith('/work/'));
    for (let waited = 0; !findWork() && waited < 15000; waited += 100)
      await page.waitForTimeout(100);
    await page.waitForLoadState('networkidle');
    const workUrl = findWork();
    if (!workUrl) return { dashboard, workspace: null };
    const workspace = await recordColdLoad(page, base, workUrl.pathname, async () => {});
    // Without a /work route the app falls back to the dashboard: no workspace to report.
    if (!new URL(page.url()).pathname.startsWith('/work/')) return { dashboard, workspace: null };
    return { dashboard, workspace };
  } finally {
    await context.close();
  }
}

const stack = await startThrowawayStack('dashboard-bench');
const proxy = await startGzipProxy(stack.webUrl);
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const base = proxy.url;
  const heroReady = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();
  // Warm the server's file cache so the first measured load is not the odd one out.
  await measurePublicPage(browser, base, '/', heroReady);

  const landing = await measurePublicPage(browser, base, '/', heroReady);
  const login = await measurePublicPage(browser, base, '/login', (page) =>
    page.getByRole('button', { name: 'Sign in with Google' }).waitFor(),
  );
  const signedIn = await measureSignedIn(browser, base);
  const demoDashboard = await measureDemoOwner(browser, base);

  const vitals: Vitals[] = [];
  for (let i = 0; i < runs; i++) {
    vitals.push(await measureColdLoad(browser, `${base}/`));
    console.log(`landing cold load ${i + 1}/${runs}:`, vitals.at(-1));
  }

  const result: BenchResult = {
    date: new Date().toISOString().slice(0, 10),
    cores: cpus().length,
    landing,
    login,
    dashboard: signedIn.dashboard,
    demoDashboard,
    workspace: signedIn.workspace,
    vitals,
  };
  const baseline = existsSync(baselineFile)
    ? (JSON.parse(readFileSync(baselineFile, 'utf8')) as BenchResult & { label: string })
    : null;
  if (saveBaseline) {
    // Formatted as the repository's Prettier check expects.
    const json = JSON.stringify({ label: 'before', ...result }, null, 2);
    writeFileSync(baselineFile, await format(json, { parser: 'json' }));
    console.log(`saved ${baselineFile}`);
  }
  const report = renderReport(result, saveBaseline ? null : baseline, runs);
  writeBenchmarkSection('Dashboard', report);
  console.log(report);
} finally {
  await browser.close();
  await proxy.close();
  await stack.stop();
}
