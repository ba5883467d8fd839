// Reading "was this a rate limit, and how long should we wait" out of agent output and
// provider responses (SPEC §6). Pure functions: `now` is a parameter, nothing here caps a
// wait (callers apply their own cap, e.g. the 300 s pause cap of SPEC §1).
import { parseUnitDuration } from "../../shared/duration";

// A 429 counts only as a number of its own: not inside 14290, a port (:4290), a hex hash
// (a429f), a version (1.429) or a decimal (429.5). "HTTP_429" and "429." still count.
const STATUS_429 = /(?<![A-Za-z0-9]|\d\.)429(?![A-Za-z0-9]|\.\d)/;
// "rate limit", "rate_limit", "rate-limit" and their inflections (limited, limits,
// limit_exceeded). The letter guard keeps "accurate limit" / "separate limits" out; glued
// "ratelimit" is left out on purpose: it is how header names print (x-ratelimit-remaining)
// in verbose logs of unrelated failures, and every SDK's real 429 also says 429 or rate_limit.
const RATE_LIMIT = /(?<![A-Za-z])rate[ _-]limit/i;
const TOO_MANY_REQUESTS = /too[ _-]many[ _-]requests/i;

/**
 * True when text carries a narrow rate-limit marker (the seed's rule): a standalone `429`,
 * `rate limit` / `rate_limit` / `rate-limit`, or `too many requests`. A bare `retry-after`
 * is not one: servers send it with 503s and maintenance pages too.
 */
export function isRateLimitMarker(text: string): boolean {
  return STATUS_429.test(text) || RATE_LIMIT.test(text) || TOO_MANY_REQUESTS.test(text);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
const LONG_DAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const MON = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
// The three HTTP-date forms of RFC 9110 §5.6.7. They are parsed by hand: Date.parse would
// read asctime (no zone) as local time and accepts free text like "soon 2".
const IMF_FIXDATE = `${DAY}, (\\d{2}) ${MON} (\\d{4}) ${TIME} GMT`;
const RFC_850 = `${LONG_DAY}, (\\d{2})-${MON}-(\\d{2}) ${TIME} GMT`;
const ASCTIME = `${DAY} ${MON} ( \\d|\\d{2}) ${TIME} (\\d{4})`;
const HTTP_DATE_SOURCE = `(?:${IMF_FIXDATE}|${RFC_850}|${ASCTIME})`;
const HTTP_DATE = new RegExp(`^${HTTP_DATE_SOURCE}$`, "i");
const DELTA_SECONDS = /^\d+(?:\.\d+)?$/;

/** Epoch ms of a calendar instant, or undefined when a field is out of range (Feb 31). */
function utc(year: number, month: number, day: number, h: number, m: number, s: number): number | undefined {
  if (month < 1 || month > 12 || h > 23 || m > 59 || s > 60) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  return Date.UTC(year, month - 1, day, h, m, Math.min(s, 59));
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.toLowerCase()) + 1;
}

function parseHttpDate(value: string, now: number): number | undefined {
  const g = HTTP_DATE.exec(value);
  if (!g) return undefined;
  const n = (i: number) => Number(g[i]);
  if (g[1] !== undefined) return utc(n(3), monthOf(g[2]!), n(1), n(4), n(5), n(6));
  if (g[7] !== undefined) {
    // RFC 9110: a two-digit year more than 50 years ahead means the previous century.
    let year = 2000 + n(9);
    if (year > new Date(now).getUTCFullYear() + 50) year -= 100;
    return utc(year, monthOf(g[8]!), n(7), n(10), n(11), n(12));
  }
  return utc(n(18), monthOf(g[13]!), n(14), n(15), n(16), n(17));
}

/**
 * Milliseconds to wait from a Retry-After value: delta-seconds (decimals accepted, rounded
 * up to whole ms) or an HTTP-date (a past date is 0). Anything else, including negative
 * numbers, is undefined.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (DELTA_SECONDS.test(v)) {
    const ms = Math.ceil(Number(v) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  const at = parseHttpDate(v, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

// `retry-after: 12`, `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`, `'retry-after': '12'`,
// `"retry_after": 1.5`. A separator is required so prose ("retry after a while") is not read;
// `retry-after-ms` (OpenAI's precise variant) is read as milliseconds, never as seconds.
const RETRY_AFTER_IN_TEXT = new RegExp(
  `retry[-_]after(?:[-_](ms))?["']?\\s*[:=]\\s*["']?(${HTTP_DATE_SOURCE}|\\d+(?:\\.\\d+)?(?!\\w|\\.\\d))`,
  "gi",
);

/** The wait announced by the last Retry-After (or retry-after-ms) found in agent output. */
export function findRetryAfterInText(text: string, now: number): number | undefined {
  let found: number | undefined;
  // The last one wins: output is a rolling tail and the latest answer is the current one.
  for (const m of text.matchAll(RETRY_AFTER_IN_TEXT)) {
    const value = m[2]!;
    const ms = m[1] !== undefined ? parseMilliseconds(value) : parseRetryAfter(value, now);
    if (ms !== undefined) found = ms;
  }
  return found;
}

function parseMilliseconds(value: string): number | undefined {
  const v = value.trim();
  return DELTA_SECONDS.test(v) ? Math.ceil(Number(v)) : undefined;
}

const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

export function parseRfc3339(value: string): number | undefined {
  const g = RFC_3339.exec(value.trim());
  if (!g) return undefined;
  const n = (i: number) => Number(g[i]);
  const base = utc(n(1), n(2), n(3), n(4), n(5), n(6));
  if (base === undefined) return undefined;
  const fraction = g[7] === undefined ? 0 : Math.round(Number(`0${g[7]}`) * 1000);
  const offsetMin = g[8] !== undefined ? 0 : (g[9] === "-" ? -1 : 1) * (n(10) * 60 + n(11));
  return base + fraction - offsetMin * 60_000;
}

const EXHAUSTED = /^\s*0\s*$/;

type Headers = Record<string, string | string[] | undefined>;

// Each reset header with the header that says whether its bucket ran out.
const RESET_HEADERS: { reset: string; remaining: string; parse: (v: string, now: number) => number | undefined }[] = [
  ...["requests", "tokens", "input-tokens", "output-tokens"].map((bucket) => ({
    reset: `anthropic-ratelimit-${bucket}-reset`,
    remaining: `anthropic-ratelimit-${bucket}-remaining`,
    parse: (v: string, now: number) => {
      const at = parseRfc3339(v);
      return at === undefined ? undefined : Math.max(0, at - now);
    },
  })),
  ...["requests", "tokens"].map((bucket) => ({
    reset: `x-ratelimit-reset-${bucket}`,
    remaining: `x-ratelimit-remaining-${bucket}`,
    parse: (v: string) => parseUnitDuration(v),
  })),
];

/**
 * Milliseconds until the provider accepts requests again, from response headers (names in
 * any case). `retry-after` wins when it parses, then `retry-after-ms`; otherwise the
 * provider reset headers. Among those, buckets whose `-remaining` header reads 0 are the
 * ones that caused the 429, so the latest of their resets is used; when none says so, the
 * latest of all resets (waiting for the latest is the only wait sure to be enough).
 */
export function parseResetHeaders(headers: Headers, now: number): number | undefined {
  const lower = new Map<string, string>();
  for (const [name, raw] of Object.entries(headers)) {
    // A repeated header arrives as an array; its first value is the one a proxy would keep.
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) lower.set(name.toLowerCase(), value);
  }
  const retryAfter = parseRetryAfter(lower.get("retry-after"), now);
  if (retryAfter !== undefined) return retryAfter;
  const retryAfterMs = lower.get("retry-after-ms");
  if (retryAfterMs !== undefined) {
    const ms = parseMilliseconds(retryAfterMs);
    if (ms !== undefined) return ms;
  }
  const all: number[] = [];
  const exhausted: number[] = [];
  for (const h of RESET_HEADERS) {
    const value = lower.get(h.reset);
    const ms = value === undefined ? undefined : h.parse(value, now);
    if (ms === undefined) continue;
    all.push(ms);
    if (EXHAUSTED.test(lower.get(h.remaining) ?? "")) exhausted.push(ms);
  }
  const pick = exhausted.length > 0 ? exhausted : all;
  return pick.length > 0 ? Math.max(...pick) : undefined;
}
