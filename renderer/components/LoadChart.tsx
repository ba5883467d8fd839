// Limit, active and queued over the last 5 minutes or hour, as step lines with labelled axes,
// drawn at the card's full width (plain SVG: a chart library would outweigh the window).
import { memo, useRef } from "react";
import { useHeadroom } from "../app-context";
import { useNow } from "../hooks/use-now";
import { useWidth } from "../hooks/use-width";
import type { Sample } from "../store/samples";

const PAD = { left: 22, right: 6, top: 6, bottom: 16 };
/** Below this height the chart is the card's compact one: its legend is read, not shown. */
const COMPACT = 80;
const NO_SAMPLES: readonly Sample[] = [];

type Scale = { x: (at: number) => number; y: (value: number) => number };

/** A step line from the samples, clipped to the range, held to the right edge. */
function stepLine(samples: readonly Sample[], pick: (s: Sample) => number, { x, y }: Scale, from: number, right: number): string {
  const points: string[] = [];
  let previous: number | undefined;
  for (const sample of samples) {
    const at = x(Math.max(sample.at, from)).toFixed(1);
    const value = y(pick(sample)).toFixed(1);
    if (previous !== undefined) points.push(`${at},${previous}`);
    points.push(`${at},${value}`);
    previous = Number(value);
  }
  if (previous !== undefined) points.push(`${right.toFixed(1)},${previous}`);
  return points.join(" ");
}

/** A top value that gives round tick labels. */
const niceTop = (value: number): number => (value <= 4 ? Math.max(1, value) : value <= 10 ? Math.ceil(value / 2) * 2 : Math.ceil(value / 5) * 5);

export const LoadChart = memo(function LoadChart({ providerId, limit, height: HEIGHT }: { providerId: string; limit: number; height: number }) {
  const compact = HEIGHT < COMPACT;
  const samples = useHeadroom((state) => state.samples[providerId]) ?? NO_SAMPLES;
  const minutes = useHeadroom((state) => state.chartMinutes);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, 320);
  // Redrawn every 2 s (the host's sampling step): a smoother scroll would cost CPU all day.
  const now = useNow(2_000);
  const span = minutes * 60_000;
  const from = now - span;
  // The range, plus the last sample before it: it says what the left edge shows.
  const firstInside = samples.findIndex((s) => s.at >= from);
  const shown = firstInside === -1 ? samples.slice(-1) : samples.slice(Math.max(0, firstInside - 1));
  const top = niceTop(Math.max(limit, ...shown.map((s) => Math.max(s.active, s.queued, s.limit)), 1));
  const right = width - PAD.right;
  const scale: Scale = {
    x: (at) => PAD.left + ((at - from) / span) * (right - PAD.left),
    y: (value) => PAD.top + (1 - value / top) * (HEIGHT - PAD.top - PAD.bottom),
  };
  const last = samples[samples.length - 1];
  const ticks = compact ? [minutes] : minutes === 5 ? [5, 4, 3, 2, 1] : [60, 45, 30, 15];
  const bottom = HEIGHT - PAD.bottom;
  return (
    <figure className={compact ? "chart chart-compact" : "chart"}>
      <figcaption className={compact ? "chart-legend visually-hidden" : "chart-legend"}>
        <span className="key key-active">active</span>
        <span className="key key-queued">queued</span>
        <span className="key key-limit">limit</span>
        <span className="muted">
          now {last?.active ?? 0} active, {last?.queued ?? 0} queued, limit {limit}
        </span>
      </figcaption>
      <div ref={box} className="chart-box" style={{ height: HEIGHT }}>
        <svg
          width={width}
          height={HEIGHT}
          role="img"
          aria-label={`${providerId}: active, queued and limit over the last ${minutes === 5 ? "5 minutes" : "hour"}; now ${last?.active ?? 0} active, ${last?.queued ?? 0} queued, limit ${limit}`}
        >
          <g className="chart-axis" aria-hidden="true">
            <line x1={PAD.left} x2={right} y1={bottom} y2={bottom} />
            <line x1={PAD.left} x2={right} y1={scale.y(top)} y2={scale.y(top)} className="chart-grid" />
            <text x={PAD.left - 4} y={scale.y(top) + 4} textAnchor="end">{top}</text>
            <text x={PAD.left - 4} y={bottom + 4} textAnchor="end">0</text>
            {ticks.map((ago) => (
              <text key={ago} x={scale.x(now - ago * 60_000)} y={HEIGHT - 4} textAnchor={ago === ticks[0] ? "start" : "middle"}>
                −{ago} min
              </text>
            ))}
            <text x={right} y={HEIGHT - 4} textAnchor="end">now</text>
          </g>
          <polyline points={stepLine(shown, (s) => s.limit, scale, from, right)} className="chart-limit" />
          <polyline points={stepLine(shown, (s) => s.queued, scale, from, right)} className="chart-queued" />
          <polyline points={stepLine(shown, (s) => s.active, scale, from, right)} className="chart-active" />
        </svg>
      </div>
    </figure>
  );
});
