// Responses over time as an SVG column chart, drawn at the width it is given (text stays at its
// size on a phone instead of shrinking with a viewBox). The picture is one image for assistive
// technology (title and summary in <desc>); the numbers themselves are in a table below it that
// a disclosure opens.
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../../../../lib/dates';
import type { TTimelineUnit } from '../../api/results-summary';
import { timelineLayout, type TimelinePoint } from './timeline-model';

/** The width of an element, following resizes (the first render uses `fallback`). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => {
      const w = node.getBoundingClientRect().width;
      if (w > 0) setWidth(Math.round(w));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** A short axis label: MM.DD for days and weeks, YY.MM for months. */
export function axisLabel(t: string, unit: TTimelineUnit): string {
  const full = formatDay(t);
  return unit === 'month' ? full.slice(0, 5) : full.slice(3);
}

export interface TimelineChartProps {
  points: readonly TimelinePoint[];
  unit: TTimelineUnit;
  /** What is counted ("responses", "likes", "clicks"), already translated, plural. */
  noun: string;
  /** A number of them in words, the noun agreeing ("1 response", "2 responses"). */
  counted: (count: number) => string;
}

export function TimelineChart({ points, unit, noun, counted }: TimelineChartProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const { ref, width } = useWidth<HTMLDivElement>(640);
  const layout = timelineLayout(points, { width });
  const first = points[0];
  const last = points.at(-1);
  const busiest = points.reduce<TimelinePoint | null>((b, p) => (!b || p.n > b.n ? p : b), null);
  const total = points.reduce((sum, p) => sum + p.n, 0);
  const title = t(`results.summary.timelineTitle.${unit}`, { noun });
  const description =
    first && last && busiest
      ? t('results.summary.timelineDesc', {
          from: formatDay(first.t),
          to: formatDay(last.t),
          counted: counted(total),
          busiest: formatDay(busiest.t),
          most: busiest.n,
        })
      : '';

  return (
    <figure className="summary-chart">
      <div className="summary-chart-canvas" ref={ref}>
        <svg
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          className="timeline-chart"
        >
          <title id={titleId}>{title}</title>
          <desc id={descId}>{description}</desc>
          <g className="chart-grid" aria-hidden="true">
            {layout.yTicks.map((tick) => (
              <g key={tick.value}>
                <line x1={layout.plot.left} x2={layout.plot.right} y1={tick.y} y2={tick.y} />
                <text x={layout.plot.left - 6} y={tick.y} dy="0.32em" textAnchor="end">
                  {tick.value.toLocaleString()}
                </text>
              </g>
            ))}
          </g>
          <g className="chart-bars" aria-hidden="true">
            {layout.bars.map((bar) => (
              <rect
                key={bar.point.t}
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
                rx={Math.min(2, bar.width / 2)}
              >
                <title>{`${formatDay(bar.point.t)}: ${bar.point.n.toLocaleString()}`}</title>
              </rect>
            ))}
          </g>
          <g className="chart-axis" aria-hidden="true">
            <line
              x1={layout.plot.left}
              x2={layout.plot.right}
              y1={layout.plot.bottom}
              y2={layout.plot.bottom}
            />
            {layout.xLabels.map((label) => (
              <text
                key={label.point.t}
                x={label.x}
                y={layout.plot.bottom + 16}
                textAnchor={label.anchor}
              >
                {axisLabel(label.point.t, unit)}
              </text>
            ))}
          </g>
        </svg>
      </div>
      <figcaption className="visually-hidden">{title}</figcaption>
      <details className="summary-table">
        <summary>{t('results.summary.showTable')}</summary>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t(`results.summary.bucket.${unit}`)}</th>
              <th scope="col">{noun}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.t}>
                <th scope="row">{formatDay(p.t)}</th>
                <td>{p.n.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
