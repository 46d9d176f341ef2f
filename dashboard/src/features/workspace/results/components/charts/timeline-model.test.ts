import { describe, expect, it } from 'vitest';
import { niceStep, timelineLayout, type TimelinePoint } from './timeline-model';

const days = (counts: number[]): TimelinePoint[] =>
  counts.map((n, i) => ({ t: `2026-11-${String(i + 1).padStart(2, '0')}`, n }));

describe('niceStep', () => {
  it('gives 1, 2, 5 times a power of ten', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(3)).toBe(1);
    expect(niceStep(9)).toBe(5);
    expect(niceStep(37)).toBe(10);
    expect(niceStep(1234)).toBe(500);
  });
});

describe('timelineLayout', () => {
  it('draws one bar per bucket, the tallest reaching the top tick', () => {
    const layout = timelineLayout(days([1, 4, 0, 8]), { width: 400 });
    expect(layout.bars).toHaveLength(4);
    expect(layout.max).toBe(8);
    expect(layout.bars[3]!.y).toBe(layout.plot.top);
    expect(layout.bars[1]!.height).toBe(layout.bars[3]!.height / 2);
    expect(layout.bars[2]!.height).toBe(0);
    expect(layout.yTicks.map((t) => t.value)).toEqual([0, 2, 4, 6, 8]);
    expect(layout.yTicks.at(-1)!.y).toBe(layout.plot.top);
  });

  it('labels as many buckets as fit without overlap, always the first and the last', () => {
    const points = days(Array.from({ length: 30 }, (_, i) => i));
    const narrow = timelineLayout(points, { width: 343 });
    const wide = timelineLayout(points, { width: 1100 });
    for (const layout of [narrow, wide]) {
      expect(layout.xLabels[0]!.point.t).toBe('2026-11-01');
      expect(layout.xLabels.at(-1)!.point.t).toBe('2026-11-30');
      // centred labels 40 px wide never touch, and stay inside the plot
      const xs = layout.xLabels.map((l) => l.x);
      for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(48);
      expect(xs[0]! - 20).toBeGreaterThanOrEqual(layout.plot.left);
      expect(xs.at(-1)! + 20).toBeLessThanOrEqual(layout.plot.right);
    }
    expect(wide.xLabels.length).toBeGreaterThan(narrow.xLabels.length);
  });

  it('handles a single bucket and an empty list', () => {
    expect(timelineLayout(days([3]), { width: 300 }).xLabels).toHaveLength(1);
    expect(timelineLayout([], { width: 300 }).bars).toEqual([]);
  });
});
