import { useId } from 'preact/hooks';
import { Table } from './lists';

export interface Series<K extends string> {
  key: K;
  label: string;
  /** A CSS colour; the legend repeats it as a swatch beside the label, so colour is never the only cue. */
  color: string;
  /** Drawn dashed, to tell lines apart without colour. */
  dashed?: boolean;
  /** What the legend says: the sum over the range (counts per bucket), or the last value (a running total). */
  legend?: 'sum' | 'last';
}

type Point<K extends string> = { time: string } & Record<K, number>;

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 10, right: 10, bottom: 24, left: 44 };

/** A round upper bound for the y axis (1, 2, 5 × 10^n), so the tick labels are readable numbers. */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const label = (iso: string, hourly: boolean) =>
  hourly
    ? new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
    : new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Counts over time as lines drawn in SVG. The drawing is hidden from screen readers, which read the legend's
 * totals and the same figures as a table (under "Show as a table").
 */
export function TimeChart<K extends string>({
  title,
  points,
  series,
  hourly,
}: {
  title: string;
  points: Array<Point<K>>;
  series: Array<Series<K>>;
  hourly: boolean;
}) {
  const id = useId();
  const max = niceMax(Math.max(0, ...points.flatMap((p) => series.map((s) => p[s.key]))));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const totals = series.map((s) => ({
    ...s,
    total: s.legend === 'last' ? (points.at(-1)?.[s.key] ?? 0) : points.reduce((sum, p) => sum + p[s.key], 0),
  }));
  const ticks = [0, max / 2, max];
  const xLabels = points.length > 0 ? [0, Math.floor((points.length - 1) / 2), points.length - 1] : [];
  return (
    <figure class="time-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <ul class="legend">
        {totals.map((s) => (
          <li key={s.key}>
            <span class={`swatch${s.dashed ? ' dashed' : ''}`} style={{ borderColor: s.color }} aria-hidden="true" />
            {s.label}: <strong>{s.total.toLocaleString()}</strong>
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {ticks.map((t) => (
          <g key={t}>
            <line class="grid-line" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} />
            <text class="tick" x={PAD.left - 6} y={y(t) + 4} text-anchor="end">
              {t.toLocaleString()}
            </text>
          </g>
        ))}
        {[...new Set(xLabels)].map((i) => (
          <text key={i} class="tick" x={x(i)} y={HEIGHT - 6} text-anchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}>
            {label(points[i]!.time, hourly)}
          </text>
        ))}
        {series.map((s) => (
          <polyline
            key={s.key}
            data-series={s.key}
            fill="none"
            stroke={s.color}
            stroke-width="2"
            stroke-dasharray={s.dashed ? '6 4' : undefined}
            vector-effect="non-scaling-stroke"
            points={points.map((p, i) => `${x(i).toFixed(1)},${y(p[s.key]).toFixed(1)}`).join(' ')}
          />
        ))}
      </svg>
      <details>
        <summary>Show as a table</summary>
        <Table
          caption={title}
          rowKey={(p) => p.time}
          rows={points}
          columns={[
            { title: hourly ? 'Hour (UTC)' : 'Day (UTC)', cell: (p) => label(p.time, hourly) },
            ...series.map((s) => ({ title: s.label, cell: (p: Point<K>) => p[s.key].toLocaleString() })),
          ]}
        />
      </details>
    </figure>
  );
}
