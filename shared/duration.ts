// Durations written with units, as Go prints them (`1s`, `6m0s`, `250ms`, `1h2m3.5s`): OpenAI's
// rate-limit reset headers use them, and so do people typing `--timeout 90s`.
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
