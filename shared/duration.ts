// Durations both ways. Read: written with units, as Go prints them (`1s`, `6m0s`, `250ms`,
// `1h2m3.5s`): OpenAI's rate-limit reset headers use them, and so do people typing
// `--timeout 90s`. Written: as people say them (SPEC §4: `350 ms`, `15 s`, `2 min 30 s`), the
// same in the window, the `headroom` command and the history.
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };
const PART = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/y;

/** Whole milliseconds (rounded up), or undefined when the text is not such a duration. A bare number has no unit and is rejected. */
export function parseUnitDuration(text: string): number | undefined {
  const value = text.trim();
  if (value === "") return undefined;
  PART.lastIndex = 0;
  let total = 0;
  while (PART.lastIndex < value.length) {
    const part = PART.exec(value);
    if (!part) return undefined;
    total += Number(part[1]) * (UNIT_MS[part[2] as string] as number);
  }
  return Math.ceil(total);
}

/** `350 ms`, `1.5 s`, `15 s`, `2 min 30 s`, `1 h 5 min`. */
export function formatDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < 1_000) return `${Math.round(value)} ms`;
  if (value < 10_000 && value % 1_000 !== 0) return `${(value / 1_000).toFixed(1)} s`;
  const seconds = Math.round(value / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Time left, in whole seconds rounded up, so "0 s" never shows while still waiting. */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1_000);
  return seconds === 0 ? "0 s" : formatDuration(seconds * 1_000);
}
