// The geometry of the responses-over-time chart, as a pure function of the points and the width:
// one column per bucket, a y axis of round numbers, and as many x labels as fit without
// overlapping (the first and the last always).

export interface TimelinePoint {
  /** The bucket's first day, YYYY-MM-DD. */
  t: string;
  n: number;
}

export interface TimelineLayout {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  bars: Array<{ x: number; y: number; width: number; height: number; point: TimelinePoint }>;
  yTicks: Array<{ y: number; value: number }>;
  xLabels: Array<{ x: number; point: TimelinePoint; anchor: 'start' | 'middle' | 'end' }>;
  max: number;
}

/** 1, 2, 5, 10, 20, 50... : the smallest such step that gives at most `count` intervals. */
export function niceStep(max: number, count = 4): number {
  if (max <= 0) return 1;
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const f of [1, 2, 5, 10]) {
    const step = f * magnitude;
    if (step >= raw) return Math.max(1, step);
  }
  return Math.max(1, 10 * magnitude);
}

export interface LayoutOptions {
  width: number;
  height?: number;
  /** Room a label needs, in px (a Korean or English date label at 12 px is about 40). */
  labelWidth?: number;
}

export function timelineLayout(
  points: readonly TimelinePoint[],
  opts: LayoutOptions,
): TimelineLayout {
  const width = Math.max(200, Math.round(opts.width));
  const height = opts.height ?? 180;
  const plot = { left: 36, top: 8, right: width - 8, bottom: height - 24 };
  const innerWidth = plot.right - plot.left;
  const innerHeight = plot.bottom - plot.top;
  const dataMax = points.reduce((m, p) => Math.max(m, p.n), 0);
  const step = niceStep(dataMax);
  const max = Math.max(step, Math.ceil(dataMax / step) * step);

  const slot = points.length > 0 ? innerWidth / points.length : innerWidth;
  const gap = slot > 6 ? Math.min(4, slot * 0.2) : 0;
  const bars = points.map((point, i) => {
    const h = max > 0 ? (point.n / max) * innerHeight : 0;
    return {
      x: plot.left + i * slot + gap / 2,
      y: plot.bottom - h,
      width: Math.max(1, slot - gap),
      height: h,
      point,
    };
  });

  const yTicks: TimelineLayout['yTicks'] = [];
  for (let value = 0; value <= max; value += step) {
    yTicks.push({ value, y: plot.bottom - (value / max) * innerHeight });
  }

  // labels are centred on their column and kept inside the plot; one that would come closer
  // than a label's width (and a gap) to the previous one, or to the last, is left out
  const labelWidth = opts.labelWidth ?? 40;
  const room = labelWidth + 8;
  const every = Math.max(1, Math.ceil(room / slot));
  const last = points.length - 1;
  const centreOf = (i: number) =>
    Math.min(
      Math.max(plot.left + i * slot + slot / 2, plot.left + labelWidth / 2),
      plot.right - labelWidth / 2,
    );
  const xLabels: TimelineLayout['xLabels'] = [];
  const lastX = last >= 0 ? centreOf(last) : 0;
  points.forEach((point, i) => {
    if (i !== last && i % every !== 0) return;
    const x = centreOf(i);
    const previous = xLabels.at(-1);
    if (i !== last && (lastX - x < room || (previous && x - previous.x < room))) return;
    xLabels.push({ x, point, anchor: 'middle' });
  });

  return { width, height, plot, bars, yTicks, xLabels, max };
}
