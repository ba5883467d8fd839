// Durations as people type them (`500ms`, `90s`, `5m`, `1h`, `1m30s`) and as the CLI prints them.
import { parseUnitDuration } from "../shared/duration";

/** Milliseconds, or undefined when the text is not a duration. A bare number is seconds. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  return parseUnitDuration(value);
}

/** `450ms`, `7s`, `2m05s`, `1h02m`: short enough for a table cell, exact enough to act on. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}
