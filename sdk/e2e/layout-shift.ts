// Cumulative Layout Shift of one page load in Chromium, as Chrome defines it: the largest session
// window (shifts less than 1 s apart, at most 5 s long) of `layout-shift` entries without recent
// input, read by a PerformanceObserver installed before any script of the page runs. Used by the
// SDK's end-to-end run (the example page must stay under 0.05) and by `npm run bench:cls`.
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { largestSessionWindow, throttleNetwork } from '../../scripts/layout-shift.ts';

declare global {
  interface Window {
    __shifts?: [start: number, value: number][];
  }
}

/** A string, not a function: tsx's transform would add helpers that do not exist in the page. */
const OBSERVER = `(() => {
  const shifts = (window.__shifts = []);
  const what = (window.__shiftSources = []);
  const name = (n) => {
    if (!n) return '?';
    const host = n.getRootNode && n.getRootNode().host;
    const own = n.nodeType === 1 ? n.localName + (n.getAttribute('part') ? '[part=' + n.getAttribute('part') + ']' : '') : '#text';
    return (host ? host.localName + ' > ' : '') + own;
  };
  const r = (x) => Math.round(x.y) + '+' + Math.round(x.height);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      shifts.push([e.startTime, e.value]);
      what.push(Math.round(e.startTime) + 'ms ' + e.value.toFixed(4) + ': ' + (e.sources || []).map((s) => name(s.node) + ' ' + r(s.previousRect) + '->' + r(s.currentRect)).join(', '));
    }
  }).observe({ type: 'layout-shift', buffered: true });
})();`;

/**
 * Chromium flags for pages whose HTML a measure rewrites (`rewrite`: a deferred loader, the form
 * first). A response fulfilled by the test has no address space of its own, so Chromium's Local
 * Network Access checks treat the page as public and refuse its requests to the loopback stack
 * ("Permission was denied for this request to access the `loopback` address space"): every block
 * failed to load and the page measured the failures. Off for such a measure only: a browser of its
 * own.
 */
export const launchRewriting = (): Promise<Browser> =>
  chromium.launch({
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, '--disable-features=LocalNetworkAccessChecks'],
  });

export interface ShiftOptions {
  viewport: { width: number; height: number };
  /** Added to every request through the DevTools protocol, so the loading state is painted. */
  latencyMs?: number;
  /** Runs in the page before its scripts (e.g. to set `lang` on every block). */
  initScript?: string;
  /** Changes the page's HTML before the browser gets it (e.g. to defer the loader). */
  rewrite?: (html: string) => string;
  /** Resolves when the page has settled (every block rendered). */
  ready: (page: Page) => Promise<void>;
}

/** One cold load of `url` in a new context; returns the CLS and the shifts it is made of. */
export async function measureLayoutShift(
  browser: Browser,
  url: string,
  o: ShiftOptions,
): Promise<{ cls: number; shifts: [number, number][] }> {
  const ctx = await browser.newContext({ viewport: o.viewport });
  try {
    const page = await ctx.newPage();
    await page.addInitScript({ content: OBSERVER });
    if (o.initScript) await page.addInitScript({ content: o.initScript });
    if (o.latencyMs) await throttleNetwork(page, { latencyMs: o.latencyMs });
    const rewrite = o.rewrite;
    if (rewrite)
      await page.route(url, async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, body: rewrite(await res.text()) });
      });
    await page.goto(url, { waitUntil: 'load' });
    await o.ready(page);
    // Late chunks (Korean texts, the realtime client) and fonts settle within this.
    await page.waitForTimeout(1500);
    const shifts = await page.evaluate(() => window.__shifts || []);
    if (process.env.CLS_DEBUG)
      console.log(
        await page.evaluate(
          () => (window as unknown as { __shiftSources: string[] }).__shiftSources,
        ),
      );
    return { cls: largestSessionWindow(shifts), shifts };
  } finally {
    await ctx.close();
  }
}

/** The six elements of examples/html. */
export const EXAMPLE_TAGS = ['comment', 'qna', 'like', 'button', 'ab', 'form'].map(
  (t) => 'reaction-' + t,
);

/** Every block of the example page shows its data (no loading state left). */
export async function examplePageReady(page: Page): Promise<void> {
  for (const tag of EXAMPLE_TAGS)
    await page
      .locator(`${tag} [part~=base]:not([aria-busy=true])`)
      .first()
      .waitFor({ timeout: 15000 });
}

/**
 * The worst case for a form (issue 22): the example page with its form (the seed's six questions:
 * a description, a poll, a long text..., twice the skeleton's three short ones) moved first, so
 * everything under it is in view when its questions arrive; with `hint`, the page sets
 * `--reaction-form-height` on it, as docs/embedding.md tells an owner to.
 */
const formFirst =
  (hint?: number) =>
  (html: string): string => {
    const FORM_SECTION = /\s*<section>\s*<h2>Form<\/h2>[\s\S]*?<\/section>/;
    const section = html.match(FORM_SECTION)?.[0]?.trim();
    if (!section || !html.includes('<h2>Comment</h2>'))
      throw new Error('examples/html/index.html has no Form or Comment section');
    const first = html
      .replace(FORM_SECTION, '')
      .replace(/<section>\s*<h2>Comment<\/h2>/, (m) => `${section}\n\n    ${m}`);
    return hint
      ? first.replace('<reaction-form', `<reaction-form style="--reaction-form-height: ${hint}px"`)
      : first;
  };

/** Every block shows its data, and the form its questions (not a failed load's state). */
async function formPageReady(page: Page): Promise<void> {
  await examplePageReady(page);
  await page.locator('reaction-form [part~=form]').waitFor({ timeout: 15000 });
}

/**
 * The options that measure the formFirst page (with its height hint when given) until the form
 * shows its questions; in a browser from launchRewriting.
 */
export const formFirstPage = (hint?: number): Pick<ShiftOptions, 'rewrite' | 'ready'> => ({
  rewrite: formFirst(hint),
  ready: formPageReady,
});

/** The loaded form's height on the formFirst page at this size, in whole px (rounded up). */
export async function loadedFormHeight(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<number> {
  const ctx = await browser.newContext({ viewport });
  try {
    const page = await ctx.newPage();
    await page.route(url, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: formFirst()(await res.text()) });
    });
    await page.goto(url);
    await examplePageReady(page);
    // the form itself, not a failure's one-line state (a read that failed under load once gave
    // a 60 px "hint"): Try again until it shows
    const form = page.locator('reaction-form [part~=form]');
    for (let i = 0; !(await form.count()); i++) {
      if (i === 5) throw new Error('the form did not load');
      await page
        .locator('reaction-form .btn')
        .click({ timeout: 5000 })
        .catch(() => {});
      await form.waitFor({ timeout: 20000 }).catch(() => {});
    }
    return Math.ceil(
      await page.locator('reaction-form').evaluate((el) => el.getBoundingClientRect().height),
    );
  } finally {
    await ctx.close();
  }
}
