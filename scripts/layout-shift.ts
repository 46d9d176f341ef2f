// Cumulative Layout Shift as Chrome defines it, from a page's `layout-shift` entries: one
// definition for the SDK's layout measure (sdk/e2e/layout-shift.ts: its end-to-end run and
// `npm run bench:cls`) and the dashboard's lab figures (dashboard/scripts/bench/web-vitals.ts).

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
