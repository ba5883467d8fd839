// The card's chart: limit, active and queued over the chosen range. The host's history
// (`GET /series`, sampled every 2 s) fills it when the window opens; each pushed change adds
// a sample between those, so the chart moves as soon as the numbers do. Values hold until
// the next sample, so the chart draws steps.
import type { ProviderSeries, SeriesResponse } from "../../shared/types";

export interface Sample {
  at: number;
  limit: number;
  active: number;
  queued: number;
}

/** The ranges the chart offers, in minutes. */
export const CHART_RANGES = [5, 60] as const;
export type ChartMinutes = (typeof CHART_RANGES)[number];

/** The same array when nothing the chart draws changed, so the card does not re-render. */
export function addSample(samples: readonly Sample[] | undefined, sample: Sample, minutes: number): readonly Sample[] {
  const list = samples ?? [];
  const last = list[list.length - 1];
  if (last && last.active === sample.active && last.queued === sample.queued && last.limit === sample.limit) return list;
  const since = sample.at - minutes * 60_000;
  // Keep the last sample before the range: it says what the chart's left edge shows.
  const firstInside = list.findIndex((s) => s.at >= since);
  const kept = firstInside === -1 ? list.slice(-1) : list.slice(Math.max(0, firstInside - 1));
  return [...kept, sample];
}

function fromSeries(series: ProviderSeries): Sample[] {
  const samples: Sample[] = [];
  series.at.forEach((at, i) => {
    const sample = { at, limit: series.limit[i] ?? 0, active: series.active[i] ?? 0, queued: series.queued[i] ?? 0 };
    const last = samples[samples.length - 1];
    if (!last || last.limit !== sample.limit || last.active !== sample.active || last.queued !== sample.queued) samples.push(sample);
  });
  return samples;
}

/** The host's history for every provider, with the live samples that arrived after it kept. */
export function mergeSeries(
  held: Readonly<Record<string, readonly Sample[]>>,
  response: SeriesResponse,
): Record<string, readonly Sample[]> {
  const merged: Record<string, readonly Sample[]> = {};
  for (const [id, series] of Object.entries(response.providers)) {
    const history = fromSeries(series);
    const newest = history[history.length - 1]?.at ?? -Infinity;
    merged[id] = [...history, ...(held[id] ?? []).filter((sample) => sample.at > newest)];
  }
  for (const [id, samples] of Object.entries(held)) if (!(id in merged)) merged[id] = samples;
  return merged;
}
