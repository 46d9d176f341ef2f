// Lighthouse-style lab figures for one cold page load in the local Chromium: First Contentful
// Paint, Largest Contentful Paint, Total Blocking Time and Cumulative Layout Shift, under
// Lighthouse's mobile preset ("slow 4G" and a 4x slower CPU) applied the way Lighthouse's
// DevTools throttling mode does it (request latency and throughput through CDP).
import type { Browser } from 'playwright-core';
import { largestSessionWindow, throttleNetwork } from '../../../scripts/layout-shift.ts';

/** Lighthouse's mobileSlow4G with its DevTools adjustment factors (RTT x3.75, throughput x0.9). */
export const SLOW_4G = {
  latencyMs: 150 * 3.75,
  downloadKbps: 1.6 * 1024 * 0.9,
  uploadKbps: 750 * 0.9,
};
export const CPU_SLOWDOWN = 4;
/** Lighthouse's mobile screen (Moto G Power). */
export const MOBILE_SCREEN = { width: 412, height: 823, deviceScaleFactor: 1.75 };
/** A long task blocks the main thread for whatever exceeds this (ms). */
const BLOCKING_THRESHOLD_MS = 50;
/** The page counts as settled after this long without a long task (Lighthouse's TTI window). */
const QUIET_WINDOW_MS = 5000;
const MAX_WAIT_MS = 30000;

export interface Vitals {
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

interface RawMetrics {
  fcp: number | null;
  lcp: number | null;
  shifts: [start: number, value: number][];
  longTasks: [start: number, duration: number][];
  now: number;
}

declare global {
  interface Window {
    __benchMetrics?: Omit<RawMetrics, 'now'>;
  }
}

/**
 * Installed before any script of the page runs, so no entry is missed. A string rather than a
 * function: tsx's transform would add helper calls that do not exist inside the page.
 */
const OBSERVER_SCRIPT = `(() => {
  const metrics = { fcp: null, lcp: null, shifts: [], longTasks: [] };
  window.__benchMetrics = metrics;
  const observe = (type, onEntry) =>
    new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') metrics.fcp = e.startTime; });
  observe('largest-contentful-paint', (e) => { metrics.lcp = e.startTime; });
  observe('layout-shift', (e) => { if (!e.hadRecentInput) metrics.shifts.push([e.startTime, e.value]); });
  observe('longtask', (e) => { metrics.longTasks.push([e.startTime, e.duration]); });
})();`;

/** Sum of the blocking part of every long task after FCP (a task straddling FCP counts from it). */
export function totalBlockingTime(longTasks: [number, number][], fcp: number): number {
  let total = 0;
  for (const [start, duration] of longTasks) {
    const end = start + duration;
    if (end <= fcp) continue;
    const counted = end - Math.max(start, fcp);
    total += Math.max(0, counted - BLOCKING_THRESHOLD_MS);
  }
  return total;
}

/** One cold load of `url` in a fresh context (empty cache, new connections). */
export async function measureColdLoad(browser: Browser, url: string): Promise<Vitals> {
  const context = await browser.newContext({
    viewport: { width: MOBILE_SCREEN.width, height: MOBILE_SCREEN.height },
    deviceScaleFactor: MOBILE_SCREEN.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: OBSERVER_SCRIPT });
    const cdp = await throttleNetwork(page, SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'load', timeout: 60000 });
    await page.waitForLoadState('networkidle', { timeout: 60000 });
    // Wait until the main thread has been free of long tasks for the quiet window.
    const started = Date.now();
    let raw: RawMetrics;
    for (;;) {
      await page.waitForTimeout(1000);
      raw = await page.evaluate(() => ({ ...window.__benchMetrics!, now: performance.now() }));
      const lastTaskEnd = Math.max(0, ...raw.longTasks.map(([s, d]) => s + d));
      if (raw.now - lastTaskEnd >= QUIET_WINDOW_MS || Date.now() - started > MAX_WAIT_MS) break;
    }
    if (raw.fcp === null) throw new Error(`no first contentful paint on ${url}`);
    return {
      fcp: raw.fcp,
      lcp: raw.lcp ?? raw.fcp,
      tbt: totalBlockingTime(raw.longTasks, raw.fcp),
      cls: largestSessionWindow(raw.shifts),
    };
  } finally {
    await context.close();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
