// Plan windows as the providers tell them (SPEC §8): Anthropic's `anthropic-ratelimit-unified-*`
// headers, Codex's `x-codex-*` headers and in-band `codex.rate_limits` event, a Codex 429
// whose body says `usage_limit_reached`, and a Gemini error naming a per-day quota. None of
// these is documented by its vendor and they change (sources in docs/windows.md), so
// everything here is defensive: a value that does not parse is left out, never an error, and
// names that do not fit are dropped. Pure: `now` is a parameter.
import { googleErrorOf, isPerDayQuota } from "../../shared/google-rpc-error";
import type { PlanWindow, WindowStatus } from "../../shared/types";
import { pacificDay } from "./pacific-day";

type Headers = Record<string, string | string[] | undefined>;

/** A window as read, plus what the engine needs beyond the status: scope and length. */
export interface WindowSighting extends PlanWindow {
  /** Model-scoped (`7d_opus`, a Codex family): shown, never pausing or holding the provider. */
  scoped: boolean;
  /** Codex tells the window's length; used for its name in words. */
  minutes?: number;
}

export interface WindowReading {
  windows: WindowSighting[];
  /** An account-wide window is used up: the provider pauses until its reset (or 60 s without one). */
  usedUp?: { name: string; resetsAt?: number };
  /**
   * SPEC §8 "Paid extra usage" (Anthropic): the plan's window is used up and requests are paid
   * from extra usage; the window that ran out. With `overage: "stop"` it counts as used up.
   */
  overage?: { name: string; resetsAt?: number };
  /** The plan itself serves (overall status allowed, no extra usage in use): paid extra usage has ended. */
  planServes?: true;
}

export const MAX_WINDOWS = 8;
/**
 * The account's own windows (SPEC §8): they always keep a place among the MAX_WINDOWS, locally
 * and in Redis, so answers full of other names (model-scoped ones, or junk) never crowd out a
 * `5h` at 97 %. Other names take what room is left, newest first, and age out.
 */
export const ACCOUNT_WINDOWS: readonly string[] = ["5h", "7d", "primary", "secondary", "day"];
const NAME = /^[a-z0-9_]{1,32}$/;
/** A reset further out than this is not a window's (the weekly one is the longest known). */
const MAX_RESET_AHEAD_MS = 31 * 24 * 3_600_000;

const first = (headers: Headers, name: string): string | undefined => {
  const raw = headers[name];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim();
};

function finite(value: unknown): number | undefined {
  const n = typeof value === "string" && /^-?\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** 0..100 with two decimals; a negative value is no reading, above 100 is 100. */
function percent(value: number | undefined): number | undefined {
  if (value === undefined || value < 0) return undefined;
  return Math.min(100, Math.round(value * 100) / 100);
}

function epochSeconds(value: unknown, now: number): number | undefined {
  const s = finite(value);
  if (s === undefined || s <= 0) return undefined;
  const ms = Math.round(s * 1000);
  return ms <= now + MAX_RESET_AHEAD_MS ? ms : undefined;
}

function secondsFromNow(value: unknown, now: number): number | undefined {
  const s = finite(value);
  return s === undefined || s < 0 || s * 1000 > MAX_RESET_AHEAD_MS ? undefined : now + Math.round(s * 1000);
}

function statusOf(value: string | undefined): WindowStatus | undefined {
  if (value === "allowed" || value === "rejected") return value;
  return value === "allowed_warning" ? "warning" : undefined;
}

/** Keeps only windows that carry a reading, at most MAX_WINDOWS, binding and account-wide first. */
function bounded(windows: Map<string, WindowSighting>): WindowSighting[] {
  const kept = [...windows.values()].filter(
    (w) => w.usedPercent !== undefined || w.resetsAt !== undefined || w.status !== undefined,
  );
  kept.sort((a, b) => Number(b.binding === true) - Number(a.binding === true) || Number(a.scoped) - Number(b.scoped));
  return kept.slice(0, MAX_WINDOWS);
}

// ── Anthropic ────────────────────────────────────────────────────────────────

const UNIFIED = /^anthropic-ratelimit-unified-(.+)-(status|utilization|reset)$/;
/** Paid extra usage and the fallback model: headers of the same shape that are not windows. */
const NOT_WINDOWS = new Set(["overage", "fallback"]);
const ACCOUNT_WIDE_ANTHROPIC = new Set(["5h", "7d"]);

/** `five_hour` → `5h`, `seven_day` → `7d`, `seven_day_opus` → `7d_opus`. */
function claimedWindow(claim: string | undefined): string | undefined {
  if (claim === undefined) return undefined;
  const name = claim.replace(/^five_hour/, "5h").replace(/^seven_day/, "7d");
  return NAME.test(name) ? name : undefined;
}

function readAnthropicWindows(headers: Headers, now: number): WindowReading | undefined {
  const windows = new Map<string, WindowSighting>();
  const windowNamed = (name: string): WindowSighting => {
    let w = windows.get(name);
    if (!w) windows.set(name, (w = { name, seenAt: now, scoped: !ACCOUNT_WIDE_ANTHROPIC.has(name) }));
    return w;
  };
  for (const header of Object.keys(headers)) {
    const match = UNIFIED.exec(header);
    if (!match) continue;
    const name = match[1]!;
    const field = match[2]!;
    if (NOT_WINDOWS.has(name) || !NAME.test(name)) continue;
    const value = first(headers, header);
    if (field === "status") {
      const status = statusOf(value);
      if (status) windowNamed(name).status = status;
    } else if (field === "utilization") {
      const used = percent(finite(value) === undefined ? undefined : finite(value)! * 100);
      if (used !== undefined) windowNamed(name).usedPercent = used;
    } else {
      const resetsAt = epochSeconds(value, now);
      if (resetsAt !== undefined) windowNamed(name).resetsAt = resetsAt;
    }
  }
  const overall = statusOf(first(headers, "anthropic-ratelimit-unified-status"));
  const overallReset = epochSeconds(first(headers, "anthropic-ratelimit-unified-reset"), now);
  const claim = claimedWindow(first(headers, "anthropic-ratelimit-unified-representative-claim"));
  if (claim !== undefined) {
    const binding = windowNamed(claim);
    binding.binding = true;
    if (binding.resetsAt === undefined && overallReset !== undefined) binding.resetsAt = overallReset;
    if (binding.status === undefined && overall !== undefined) binding.status = overall;
  }
  const list = bounded(windows);
  if (list.length === 0 && overall === undefined) return undefined;
  const reading: WindowReading = { windows: list };
  // With overage allowed, a rejected plan still serves requests, billed as extra usage (SPEC §8).
  const overage = first(headers, "anthropic-ratelimit-unified-overage-status");
  const overageAllowed = overage === "allowed" || overage === "allowed_warning";
  const inUse = first(headers, "anthropic-ratelimit-unified-overage-in-use")?.trim().toLowerCase() === "true";
  if ((overall === "rejected" && overageAllowed) || inUse) {
    const window = anthropicUsedUp(list, claim, overallReset);
    if (window) reading.overage = window;
  } else if (overall === "rejected") {
    const usedUp = anthropicUsedUp(list, claim, overallReset);
    if (usedUp) reading.usedUp = usedUp;
  } else if (overall === "allowed" || overall === "warning") {
    reading.planServes = true;
  }
  return reading;
}

/** The binding window when it is account-wide, else the rejected account-wide one that resets last. */
function anthropicUsedUp(
  windows: WindowSighting[],
  claim: string | undefined,
  overallReset: number | undefined,
): WindowReading["usedUp"] {
  const claimed = windows.find((w) => w.name === claim);
  if (claimed?.scoped) return undefined;
  const rejected = windows
    .filter((w) => !w.scoped && w.status === "rejected")
    .sort((a, b) => (b.resetsAt ?? 0) - (a.resetsAt ?? 0));
  const window = claimed ?? rejected[0];
  const name = window?.name ?? "5h";
  const resetsAt = window?.resetsAt ?? overallReset;
  return resetsAt === undefined ? { name } : { name, resetsAt };
}

// ── Codex ────────────────────────────────────────────────────────────────────

const CODEX = /^x-codex-(?:(.+?)-)?(primary|secondary)-(used-percent|window-minutes|reset-at|reset-after-seconds)$/;

function codexWindow(family: string | undefined, slot: string, now: number): WindowSighting | undefined {
  const name = family === undefined ? slot : `${family.replace(/-/g, "_")}_${slot}`;
  return NAME.test(name) ? { name, seenAt: now, scoped: family !== undefined } : undefined;
}

function readCodexWindows(headers: Headers, now: number): WindowReading | undefined {
  const windows = new Map<string, WindowSighting>();
  for (const header of Object.keys(headers)) {
    const match = CODEX.exec(header);
    if (!match) continue;
    const field = match[3]!;
    const fresh = codexWindow(match[1], match[2]!, now);
    if (!fresh) continue;
    const w = windows.get(fresh.name) ?? fresh;
    const value = first(headers, header);
    if (field === "used-percent") {
      const used = percent(finite(value));
      if (used !== undefined) w.usedPercent = used;
    } else if (field === "window-minutes") {
      const minutes = finite(value);
      if (minutes !== undefined && Number.isInteger(minutes) && minutes > 0) w.minutes = minutes;
    } else if (field === "reset-at") {
      const at = epochSeconds(value, now);
      if (at !== undefined) w.resetsAt = at;
    } else if (epochSeconds(first(headers, header.replace(/-after-seconds$/, "-at")), now) === undefined) {
      // reset-at, when it parses, is the exact one.
      const at = secondsFromNow(value, now);
      if (at !== undefined) w.resetsAt = at;
    }
    if (!windows.has(w.name)) windows.set(w.name, w);
  }
  const list = bounded(windows);
  return list.length === 0 ? undefined : withCodexUsedUp({ windows: list });
}

/** A Codex primary or secondary window at 100 % is used up; the later reset is the one to wait for. */
function withCodexUsedUp(reading: WindowReading): WindowReading {
  const full = reading.windows
    .filter((w) => !w.scoped && w.usedPercent !== undefined && w.usedPercent >= 100)
    .sort((a, b) => (b.resetsAt ?? 0) - (a.resetsAt ?? 0))[0];
  if (full) reading.usedUp = full.resetsAt === undefined ? { name: full.name } : { name: full.name, resetsAt: full.resetsAt };
  return reading;
}

type Json = Record<string, unknown>;
const objectAt = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;

/**
 * The in-band `codex.rate_limits` event (an SSE `data:` payload or a WebSocket message, already
 * parsed as JSON): `rate_limits.primary` / `.secondary` with `used_percent`, `window_minutes` and
 * `reset_at` or `reset_after_seconds` (older builds: `resets_in_seconds`). An event for another
 * metered limit (`metered_limit_name: "codex_bengalfox"`) is that model-scoped family.
 */
export function readCodexRateLimitsEvent(event: unknown, now: number): WindowReading | undefined {
  const data = objectAt(event);
  if (data?.type !== "codex.rate_limits") return undefined;
  const limits = objectAt(data.rate_limits);
  if (!limits) return undefined;
  const limitName = [data.metered_limit_name, data.limit_name].find((v): v is string => typeof v === "string");
  const id = limitName?.trim().toLowerCase().replace(/-/g, "_");
  const family = id === undefined || id === "" || id === "codex" ? undefined : id.replace(/^codex_/, "");
  const windows = new Map<string, WindowSighting>();
  for (const slot of ["primary", "secondary"] as const) {
    const raw = objectAt(limits[slot]);
    const w = raw && codexWindow(family, slot, now);
    if (!raw || !w) continue;
    const used = percent(finite(raw.used_percent));
    if (used !== undefined) w.usedPercent = used;
    const minutes = finite(raw.window_minutes);
    if (minutes !== undefined && Number.isInteger(minutes) && minutes > 0) w.minutes = minutes;
    const resetsAt =
      epochSeconds(raw.reset_at, now) ??
      secondsFromNow(raw.reset_after_seconds, now) ??
      secondsFromNow(raw.resets_in_seconds, now);
    if (resetsAt !== undefined) w.resetsAt = resetsAt;
    windows.set(w.name, w);
  }
  const list = bounded(windows);
  return list.length === 0 ? undefined : withCodexUsedUp({ windows: list });
}

/**
 * A Codex 429 whose body is `{ error: { type: "usage_limit_reached", resets_at | resets_in_seconds } }`:
 * the window that is full in the same answer's headers (an active model-scoped family means only
 * that model is refused), else the primary one.
 */
export function readUsageLimitRefusal(body: unknown, headers: WindowReading | undefined, now: number): WindowReading | undefined {
  const error = objectAt(objectAt(body)?.error);
  if (error?.type !== "usage_limit_reached" && error?.code !== "usage_limit_reached") return undefined;
  const windows = headers?.windows ?? [];
  const full = (w: WindowSighting) => w.usedPercent !== undefined && w.usedPercent >= 100;
  const accountFull = windows.find((w) => !w.scoped && full(w));
  if (!accountFull && windows.some((w) => w.scoped && full(w))) return { windows };
  const resetsAt = epochSeconds(error.resets_at, now) ?? secondsFromNow(error.resets_in_seconds, now) ?? accountFull?.resetsAt;
  const name = accountFull?.name ?? "primary";
  return { windows, usedUp: resetsAt === undefined ? { name } : { name, resetsAt } };
}

// ── Gemini ───────────────────────────────────────────────────────────────────

/**
 * Google may let the quota back a little after midnight: a per-day refusal this soon after it
 * is the reset lagging, so the provider tries again in a minute rather than tomorrow.
 */
const LATE_RESET_MS = 10 * 60_000;
const LATE_RESET_RETRY_MS = 60_000;

/**
 * A Gemini error (a 429's body or an error chunk inside a stream) whose google.rpc.QuotaFailure
 * names a per-day quota (`quotaId` with `PerDay` or `Daily`): the `day` window, used up until the
 * next midnight Pacific time. A per-minute quota is no window: its RetryInfo wait is the 429's.
 */
export function readGeminiDayRefusal(body: unknown, now: number): WindowReading | undefined {
  const error = googleErrorOf(body);
  if (!error || (error.code !== 429 && error.status !== "RESOURCE_EXHAUSTED") || !isPerDayQuota(error)) return undefined;
  const { nextMidnight, sinceMidnightMs } = pacificDay(now);
  const resetsAt = sinceMidnightMs < LATE_RESET_MS ? now + LATE_RESET_RETRY_MS : nextMidnight;
  const day: WindowSighting = { name: "day", usedPercent: 100, status: "rejected", resetsAt, seenAt: now, scoped: false };
  return { windows: [day], usedUp: { name: "day", resetsAt } };
}

/** Every window reading in one response's headers (names in lower case, as Node gives them). */
export function readWindowHeaders(headers: Headers, now: number): WindowReading | undefined {
  return readAnthropicWindows(headers, now) ?? readCodexWindows(headers, now);
}
