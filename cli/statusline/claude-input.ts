// What Claude Code writes to its status line's standard input (SPEC §10): a JSON object with
// `session_id`, `cwd`, `model`, … and, on a claude.ai login once the session's first answer
// came back, `rate_limits.five_hour` / `.seven_day` with `used_percentage` (0..100) and
// `resets_at` (epoch seconds). Read defensively: anything else, or nothing, is no windows.
import type { ReportedWindow } from "../../shared/schemas";

/** Claude Code's keys and the window names the proxy reads from Anthropic's headers (SPEC §8). */
const NAMES: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^five_hour$/, () => "5h"],
  [/^seven_day$/, () => "7d"],
  // seven_day_opus, seven_day_sonnet: model-scoped, as `7d_opus` is in the headers.
  [/^seven_day_([a-z0-9_]{1,20})$/, (m) => `7d_${m[1]}`],
];
const MAX_WINDOWS = 8;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function nameOf(key: string): string | undefined {
  for (const [pattern, name] of NAMES) {
    const match = pattern.exec(key);
    if (match) return name(match);
  }
  return undefined;
}

function windowOf(name: string, raw: unknown): ReportedWindow | undefined {
  if (!isObject(raw)) return undefined;
  const used = raw.used_percentage;
  if (typeof used !== "number" || !Number.isFinite(used) || used < 0) return undefined;
  const resets = raw.resets_at;
  const resetsAt = typeof resets === "number" && Number.isFinite(resets) && resets > 0 ? Math.round(resets * 1000) : undefined;
  // Claude Code has been seen to say 105 % past the limit; the API takes 0..100, as the proxy's reading would.
  return { name, usedPercent: Math.min(100, used), ...(resetsAt === undefined ? {} : { resetsAt }) };
}

/** The windows in Claude Code's status line input; none for input that is not what it writes. */
export function claudeWindows(text: string): ReportedWindow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const limits = isObject(data) ? data.rate_limits : undefined;
  if (!isObject(limits)) return [];
  const windows: ReportedWindow[] = [];
  for (const [key, raw] of Object.entries(limits)) {
    const name = nameOf(key);
    const window = name === undefined ? undefined : windowOf(name, raw);
    if (window && windows.length < MAX_WINDOWS) windows.push(window);
  }
  return windows;
}
