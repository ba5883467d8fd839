// The card's chart: active and queued over the last five minutes, one sample per change
// (the values hold until the next one, so the chart draws steps).
export interface Sample {
  at: number;
  active: number;
  queued: number;
}

export const CHART_WINDOW_MS = 5 * 60_000;

/** The same array when nothing the chart draws changed, so the card does not re-render. */
export function addSample(samples: readonly Sample[] | undefined, sample: Sample): readonly Sample[] {
  const list = samples ?? [];
  const last = list[list.length - 1];
  if (last && last.active === sample.active && last.queued === sample.queued) return list;
  const since = sample.at - CHART_WINDOW_MS;
  // Keep the last sample before the window: it says what the chart's left edge shows.
  const firstInside = list.findIndex((s) => s.at >= since);
  const kept = firstInside === -1 ? list.slice(-1) : list.slice(Math.max(0, firstInside - 1));
  return [...kept, sample];
}
