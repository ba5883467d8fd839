// Active and queued over the last five minutes as two step lines (plain SVG: a chart library
// would outweigh the rest of the window).
import { memo } from "react";
import { useHeadroom } from "../app-context";
import { useNow } from "../hooks/use-now";
import { CHART_WINDOW_MS, type Sample } from "../store/samples";

const WIDTH = 240;
const HEIGHT = 44;
const NO_SAMPLES: readonly Sample[] = [];

function stepLine(samples: readonly Sample[], pick: (s: Sample) => number, x: (at: number) => number, y: (v: number) => number, now: number): string {
  const points: string[] = [];
  let previous: number | undefined;
  for (const sample of samples) {
    const at = x(Math.max(sample.at, now - CHART_WINDOW_MS));
    const value = y(pick(sample));
    if (previous !== undefined) points.push(`${at.toFixed(1)},${previous.toFixed(1)}`);
    points.push(`${at.toFixed(1)},${value.toFixed(1)}`);
    previous = value;
  }
  if (previous !== undefined) points.push(`${WIDTH},${previous.toFixed(1)}`);
  return points.join(" ");
}

export const LoadChart = memo(function LoadChart({ providerId, limit }: { providerId: string; limit: number }) {
  const samples = useHeadroom((state) => state.samples[providerId]) ?? NO_SAMPLES;
  const now = useNow(1_000);
  const top = Math.max(limit, ...samples.map((s) => s.active + s.queued), 1);
  const x = (at: number) => ((at - (now - CHART_WINDOW_MS)) / CHART_WINDOW_MS) * WIDTH;
  const y = (value: number) => HEIGHT - 2 - (value / top) * (HEIGHT - 4);
  const last = samples[samples.length - 1];
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Active and queued over the last five minutes; now ${last?.active ?? 0} active, ${last?.queued ?? 0} queued`}
      >
        <line x1="0" x2={WIDTH} y1={y(limit)} y2={y(limit)} className="chart-limit" />
        <polyline points={stepLine(samples, (s) => s.queued, x, y, now)} className="chart-queued" />
        <polyline points={stepLine(samples, (s) => s.active, x, y, now)} className="chart-active" />
      </svg>
      <figcaption>
        <span className="key-active">active</span> <span className="key-queued">queued</span> · last 5 min
      </figcaption>
    </figure>
  );
});
