// Durations as people type them (`500ms`, `90s`, `5m`, `1h`, `1m30s`); shared/duration.ts prints them.
import { parseUnitDuration } from "../shared/duration";

/** Milliseconds, or undefined when the text is not a duration. A bare number is seconds. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  return parseUnitDuration(value);
}
