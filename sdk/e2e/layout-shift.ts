// Cumulative Layout Shift of one page load in Chromium, as Chrome defines it: the largest session
// window (shifts less than 1 s apart, at most 5 s long) of `layout-shift` entries without recent
// input, read by a PerformanceObserver installed before any script of the page runs. Used by the
// SDK's end-to-end run (the example page must stay under 0.05) and by `npm run bench:cls`.
import type { Browser, Page } from 'playwright-core';

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

export function largestSessionWindow(shifts: [number, number][]): number {
  let best = 0;
  let current = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const [time, value] of [...shifts].sort((a, b) => a[0] - b[0])) {
    if (time - last > 1000 || time - start > 5000) {
      current = 0;
      start = time;
    }
    current += value;
    last = time;
    best = Math.max(best, current);
  }
  return best;
}

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
    if (o.latencyMs) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: o.latencyMs,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
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
