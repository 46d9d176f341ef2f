// What the SDK's layout measure (sdk/e2e/layout-shift.ts: its end-to-end run and `npm run
// bench:cls`) and the dashboard's lab figures (dashboard/scripts/bench/web-vitals.ts) share:
// Cumulative Layout Shift as Chrome defines it, from a page's `layout-shift` entries, and the
// slow network a lab load runs on.
import type { CDPSession, Page } from 'playwright-core';

/**
 * The largest session window of shifts given as [start time in ms, value]: shifts less than 1 s
 * apart, a window at most 5 s long.
 */
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

/**
 * `page`'s network for a lab load, set through the DevTools protocol as Lighthouse's DevTools
 * throttling does it: no cache, `latencyMs` added to every request, the throughput in kbit/s
 * (unlimited when not given). Returns the session, for the CPU's throttling too.
 */
export async function throttleNetwork(
  page: Page,
  o: { latencyMs: number; downloadKbps?: number; uploadKbps?: number },
): Promise<CDPSession> {
  const bytesPerSecond = (kbps?: number) => (kbps === undefined ? -1 : (kbps * 1024) / 8);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: o.latencyMs,
    downloadThroughput: bytesPerSecond(o.downloadKbps),
    uploadThroughput: bytesPerSecond(o.uploadKbps),
  });
  return cdp;
}
