// Durations typed as people say them (SPEC §4: durations read as people say them, so fields
// take them too): `5 s`, `2 min 30 s`, `90s`, `1 h`, or a bare number of seconds. The window
// shows the value back with formatDuration, so what is read is what can be typed.
import { parseUnitDuration } from "../shared/duration";

const UNITS: [RegExp, string][] = [
  [/\b(hours?|hrs?)\b/g, "h"],
  [/\b(minutes?|mins?)\b/g, "m"],
  [/\b(seconds?|secs?)\b/g, "s"],
  [/\b(milliseconds?)\b/g, "ms"],
];

/** Whole milliseconds, or undefined when the text is not a duration. */
export function parseSpokenDuration(text: string): number | undefined {
  let value = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value) * 1_000);
  for (const [words, unit] of UNITS) value = value.replace(words, unit);
  return parseUnitDuration(value.replace(/\s+/g, ""));
}
