// How long a plan window runs (SPEC §8 `windows[].lengthMs`), for the resume, cost and pace work
// and the window's meters. Codex tells its windows' minutes; Anthropic's names say theirs
// (`5h`, `7d`, `7d_opus`); Gemini's per-day quota is a day. Any other name: not known.

const HOUR_MS = 3_600_000;

const BY_NAME: [test: RegExp, lengthMs: number][] = [
  [/^5h(?:_|$)/, 5 * HOUR_MS],
  [/^7d(?:_|$)/, 7 * 24 * HOUR_MS],
  [/^day$/, 24 * HOUR_MS],
];

/** The window's length in ms, from the minutes a reading gave, else its name; undefined when unknown. */
export function windowLengthMs(name: string, minutes?: number): number | undefined {
  if (minutes !== undefined && Number.isInteger(minutes) && minutes > 0) return minutes * 60_000;
  return BY_NAME.find(([test]) => test.test(name))?.[1];
}
