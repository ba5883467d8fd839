// Summaries and units shared by the bench files. Figures on a busy 2-core machine are noisy,
// so every headline is a median over rounds, and ratios are taken round by round.

/** Nearest-rank percentile (p in 0..1) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 0.5);

/** Smallest and largest, to show how far rounds spread around their median. */
export function spread(samples: readonly number[]): { min: number; max: number } {
  return { min: Math.min(...samples), max: Math.max(...samples) };
}

export function formatRate(perSecond: number, unit = "ops/s"): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M ${unit}`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(0)} k ${unit}`;
  return `${perSecond.toFixed(0)} ${unit}`;
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;
}

export function formatNs(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}

export function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
