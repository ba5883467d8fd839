// One bucket's counts (SPEC §9), shared by the hourly ledger and the per-day counter. Sums
// saturate at Number.MAX_SAFE_INTEGER: past 2^53 a sum stops being exact, and a file holding one
// was once dropped whole on the next start. `costUsd` and `unpriced` are the slots "What it
// cost" fills (0 until a price is known); `project` is the agent's folder, `~`-shortened.
import { noTokens, type TokenCounts, type UsageGroup, type UsageRow } from "../../shared/agents";

export interface UsageCount {
  requests: number;
  rateLimited: number;
  errors: number;
  tokens: TokenCounts;
  /** US dollars, as priced when counted; 0 when nothing was priced. */
  costUsd: number;
  /** Requests whose model had no price. */
  unpriced: number;
}

export const OTHER = "other";

export const emptyCount = (): UsageCount => ({ requests: 0, rateLimited: 0, errors: 0, tokens: noTokens(), costUsd: 0, unpriced: 0 });

const MAX = Number.MAX_SAFE_INTEGER;
const plus = (a: number, b: number) => (a + b > MAX ? MAX : a + b);

export function addInto(into: UsageCount, from: UsageCount): void {
  into.requests = plus(into.requests, from.requests);
  into.rateLimited = plus(into.rateLimited, from.rateLimited);
  into.errors = plus(into.errors, from.errors);
  into.tokens.input = plus(into.tokens.input, from.tokens.input);
  into.tokens.output = plus(into.tokens.output, from.tokens.output);
  into.tokens.cacheRead = plus(into.tokens.cacheRead, from.tokens.cacheRead);
  into.tokens.cacheWrite = plus(into.tokens.cacheWrite, from.tokens.cacheWrite);
  into.costUsd = Math.min(into.costUsd + from.costUsd, MAX);
  into.unpriced = plus(into.unpriced, from.unpriced);
}

export const tokenTotal = (count: UsageCount) => plus(plus(count.tokens.input, count.tokens.output), plus(count.tokens.cacheRead, count.tokens.cacheWrite));

export const copyCount = (count: UsageCount): UsageCount => ({
  requests: count.requests,
  rateLimited: count.rateLimited,
  errors: count.errors,
  tokens: { ...count.tokens },
  costUsd: count.costUsd,
  unpriced: count.unpriced,
});

// What one series costs in its file at most: every count at 16 digits, the keys, and each name
// at 3 bytes a UTF-16 unit (tamed names hold no control characters, so nothing escapes longer).
const SERIES_FIXED_BYTES = 280;
export const seriesBytes = (...names: string[]) => names.reduce((sum, name) => sum + 3 * name.length, SERIES_FIXED_BYTES);

/** The event every answer adds: one request, its outcome and its tokens. */
export function countOf(event: { rateLimited?: boolean; error?: boolean; tokens?: TokenCounts; costUsd?: number; unpriced?: boolean }): UsageCount {
  return {
    requests: 1,
    rateLimited: event.rateLimited ? 1 : 0,
    errors: event.error ? 1 : 0,
    tokens: event.tokens ? { ...event.tokens } : noTokens(),
    costUsd: event.costUsd ?? 0,
    unpriced: event.unpriced ? 1 : 0,
  };
}

/** SPEC §9: `by=project` puts requests with no known folder under this name. */
export const UNKNOWN_PROJECT = "unknown";

/** The last local day asked about: every answer counted asks, and it is nearly always today. */
let day = { from: 0, until: 0, date: "" };

/** The host's local date of a time, `YYYY-MM-DD` (formatted once a day, not once an answer). */
export function localDate(at: number): string {
  if (at >= day.from && at < day.until) return day.date;
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, "0");
  const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
  day = { from: new Date(y, m, d).getTime(), until: new Date(y, m, d + 1).getTime(), date: `${y}-${two(m + 1)}-${two(d)}` };
  return day.date;
}

const ROW_KEY = { agent: "agent", provider: "providerId", model: "model", project: "project", day: "day", hour: "hour" } as const;

/**
 * Grouped sums as `GET /usage` rows: days and hours in time order (a table or chart reads them
 * left to right), the rest biggest first; `apiEquivalent` where every provider was on a plan.
 */
export function usageRows(groups: Map<string, UsageCount>, by: UsageGroup, allOnPlan: Map<string, boolean>): UsageRow[] {
  const entries = [...groups];
  if (by === "day" || by === "hour") entries.sort(([a], [b]) => (by === "hour" ? Number(a) - Number(b) : a.localeCompare(b)));
  else entries.sort(([, a], [, b]) => tokenTotal(b) - tokenTotal(a) || b.requests - a.requests);
  return entries.map(([name, count]) => ({
    [ROW_KEY[by]]: by === "hour" ? Number(name) : name,
    ...copyCount(count),
    ...(allOnPlan.get(name) ? { apiEquivalent: true as const } : {}),
  }));
}
