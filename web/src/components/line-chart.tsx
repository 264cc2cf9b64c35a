import { type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import './line-chart.css';

/**
 * A small line chart drawn as inline SVG (no chart library): a numeric value over time, with labelled axes, a
 * title and a description for assistive technology, and optionally a step line for a figure that changes in
 * steps (stock stays at a level until the next movement). A marker can point at one instant.
 */

export interface ChartPoint {
  /** The instant, ms since the epoch. */
  at: number;
  value: number;
}

export interface LineChartProps {
  points: readonly ChartPoint[];
  /** The chart's accessible name, also shown above it. */
  title: string;
  /** What the chart shows, in words (read by screen readers). */
  description: string;
  xLabel: string;
  yLabel: string;
  /** A time on the axis; `span` (ms) is the axis' whole range, to choose the precision. */
  formatX: (at: number, span: number) => string;
  formatY?: (value: number) => string;
  /** Hold each value until the next point (and to `until`), instead of joining points with slopes. */
  step?: boolean;
  /** Where the time axis ends (default: the last point); a step line is drawn on to it. */
  until?: number;
  /** An instant to mark with a vertical line, e.g. the point in time being looked at. */
  marker?: { at: number; label: string };
  emptyText?: string;
}

const DEFAULT_WIDTH = 720;
const HEIGHT = 280;
const PAD = { top: 16, right: 20, bottom: 52, left: 64 };

/** About `count` round tick values covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) {
    const spread = Math.max(1, Math.abs(min) * 0.1);
    return niceTicks(min - spread, max + spread, count);
  }
  const raw = (max - min) / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((factor) => factor * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let value = Math.floor(min / step) * step; value <= max + step / 2; value += step) {
    ticks.push(Number(value.toPrecision(12)));
    if (value >= max) break;
  }
  return ticks;
}

/** The drawn width follows the frame's, so text keeps its size instead of scaling with the picture. */
function useWidth(frame: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next >= 240) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [frame]);
  return width;
}

export function LineChart({
  points,
  title,
  description,
  xLabel,
  yLabel,
  formatX,
  formatY = (value) => String(value),
  step = false,
  until,
  marker,
  emptyText,
}: LineChartProps) {
  const id = useId();
  const frame = useRef<HTMLDivElement>(null);
  const width = useWidth(frame);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;

  const chart = useMemo(() => {
    const sorted = [...points].sort((a, b) => a.at - b.at);
    if (sorted.length === 0) return null;
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    let x0 = first.at;
    let x1 = Math.max(last.at, until ?? last.at, marker?.at ?? last.at);
    if (marker) x0 = Math.min(x0, marker.at);
    if (x1 === x0) {
      x0 -= 60_000;
      x1 += 60_000;
    }
    const values = sorted.map((point) => point.value);
    const yTicks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
    const y0 = yTicks[0] ?? 0;
    const y1 = yTicks[yTicks.length - 1] ?? 1;
    const plotW = width - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const sx = (at: number) => PAD.left + ((at - x0) / (x1 - x0)) * plotW;
    const sy = (value: number) => PAD.top + plotH - ((value - y0) / (y1 - y0 || 1)) * plotH;

    let path = `M${sx(first.at).toFixed(1)},${sy(first.value).toFixed(1)}`;
    for (const point of sorted.slice(1)) {
      const x = sx(point.at).toFixed(1);
      const y = sy(point.value).toFixed(1);
      path += step ? `H${x}V${y}` : `L${x},${y}`;
    }
    if (step && x1 > last.at) path += `H${sx(x1).toFixed(1)}`;

    const xTickCount = Math.max(2, Math.min(7, Math.floor(plotW / 150)));
    const xTicks = Array.from({ length: xTickCount }, (_, i) => x0 + ((x1 - x0) * i) / (xTickCount - 1));
    return { sorted, path, sx, sy, yTicks, xTicks, plotH, plotW, zeroY: sy(0), span: x1 - x0 };
  }, [points, step, until, marker, width]);

  return (
    <figure className="line-chart">
      <figcaption className="line-chart-title" aria-hidden="true">
        {title}
      </figcaption>
      <div ref={frame} className="line-chart-frame">
        {chart ? (
          <svg
            viewBox={`0 0 ${width} ${HEIGHT}`}
            role="img"
            aria-labelledby={titleId}
            aria-describedby={descId}
            preserveAspectRatio="xMidYMid meet"
          >
            <title id={titleId}>{title}</title>
            <desc id={descId}>{description}</desc>
            <g className="line-chart-grid">
              {chart.yTicks.map((tick) => (
                <g key={`y${tick}`}>
                  <line x1={PAD.left} x2={PAD.left + chart.plotW} y1={chart.sy(tick)} y2={chart.sy(tick)} />
                  <text x={PAD.left - 8} y={chart.sy(tick)} dy="0.32em" textAnchor="end">
                    {formatY(tick)}
                  </text>
                </g>
              ))}
              {chart.xTicks.map((tick, index) => (
                <text
                  key={`x${tick}`}
                  x={chart.sx(tick)}
                  y={PAD.top + chart.plotH + 18}
                  textAnchor={index === 0 ? 'start' : index === chart.xTicks.length - 1 ? 'end' : 'middle'}
                >
                  {formatX(tick, chart.span)}
                </text>
              ))}
            </g>
            <line
              className="line-chart-axis"
              x1={PAD.left}
              x2={PAD.left}
              y1={PAD.top}
              y2={PAD.top + chart.plotH}
            />
            <line
              className="line-chart-axis"
              x1={PAD.left}
              x2={PAD.left + chart.plotW}
              y1={chart.zeroY}
              y2={chart.zeroY}
            />
            <text
              className="line-chart-axis-label"
              x={PAD.left + chart.plotW / 2}
              y={HEIGHT - 8}
              textAnchor="middle"
            >
              {xLabel}
            </text>
            <text
              className="line-chart-axis-label"
              transform={`translate(14 ${PAD.top + chart.plotH / 2}) rotate(-90)`}
              textAnchor="middle"
            >
              {yLabel}
            </text>
            {marker && (
              <g className="line-chart-marker">
                <line
                  x1={chart.sx(marker.at)}
                  x2={chart.sx(marker.at)}
                  y1={PAD.top}
                  y2={PAD.top + chart.plotH}
                />
                <text
                  x={chart.sx(marker.at) + (chart.sx(marker.at) > width / 2 ? -4 : 4)}
                  y={PAD.top + 10}
                  textAnchor={chart.sx(marker.at) > width / 2 ? 'end' : 'start'}
                >
                  {marker.label}
                </text>
              </g>
            )}
            <path className="line-chart-line" d={chart.path} />
            {chart.sorted.length <= 200 &&
              chart.sorted.map((point, index) => (
                <circle
                  // biome-ignore lint/suspicious/noArrayIndexKey: two points may share an instant
                  key={index}
                  className="line-chart-point"
                  cx={chart.sx(point.at)}
                  cy={chart.sy(point.value)}
                  r={2.5}
                >
                  <title>{`${formatX(point.at, 0)}: ${formatY(point.value)}`}</title>
                </circle>
              ))}
          </svg>
        ) : (
          <p className="muted line-chart-empty">{emptyText}</p>
        )}
      </div>
    </figure>
  );
}
