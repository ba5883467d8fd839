// A shared provider's status entry (SPEC §1, §7) from the script's `status` reply, what it
// says before the host has joined and while Redis cannot be asked, and the settings it shows.
import type { ConcurrencyStatusEntry, PauseKind, UsageGateReading } from "../../shared/types";
import * as say from "../engine/pool-messages";
import * as windowSay from "../engine/window-messages";
import type { PoolConfig } from "../engine/pool-types";
import type { WindowSighting } from "../engine/window-readings";
import { list, type StatusResult } from "./pool-protocol";
import type { RedisWindow } from "./shared-windows";

/**
 * SPEC §7 adds `shared` and `hosts` (how many hosts are live for it) to a shared provider's
 * entry; while Redis is unreachable it is the last entry Redis gave, with a `waitReason`.
 */
export type SharedStatusEntry = ConcurrencyStatusEntry & {
  shared: true;
  hosts: number;
  waitReason?: string;
  /** For the host only, never shown: Redis's window pause and every host's readings (shared-windows.ts). */
  window?: RedisWindow;
  sightings?: WindowSighting[];
  rejoinHoldUntil?: number;
  /** Resuming waiters across hosts (SPEC §8): they wait for the window's reset, said in words on the host. */
  resumingQueued?: number;
};

/** Why admissions wait after Redis restarted empty, until `until` (SPEC §7: 10 s for the hosts to re-register). */
const rejoinReason = (providerId: string, until: number, now: number): string =>
  `Redis restarted empty: new admissions to shared provider ${providerId} wait ${Math.max(1, Math.ceil((until - now) / 1000))} s more for every host to re-register its leases.`;

const isSighting = (value: unknown): value is WindowSighting => {
  const s = value as Partial<WindowSighting> | null;
  return typeof s === "object" && s !== null && typeof s.name === "string" && typeof s.seenAt === "number" && typeof s.scoped === "boolean";
};

/** Each host wrote its own: one that does not read as a sighting is left out. */
function sightingsOf(raw: StatusResult["sightings"]): WindowSighting[] {
  return list(raw).flatMap((text) => {
    try {
      const value: unknown = JSON.parse(text);
      return isSighting(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

export const redisUnreachableReason = (providerId: string): string =>
  `Redis is unreachable: admissions to shared provider ${providerId} wait until it is back, and releases are kept until then.`;

const connectingReason = (providerId: string): string =>
  `Connecting to Redis: admissions to shared provider ${providerId} wait until it answers.`;

/** What only this host knows: the banner's dismissal, the waits of its own admissions, its usage gate's reading. */
export interface HostSide {
  noticeDismissed: boolean;
  waits: { p50: number; p95: number } | undefined;
  usageGate: UsageGateReading | undefined;
}

/**
 * The later of the 429 pause and a used-up window's, with the reason of whichever ends later, and
 * `pauseKind` while the window's pause runs at all (as the local pool shows them).
 */
function pauseOf(status: StatusResult, now: number): { pausedUntil?: number; pauseReason?: string; pauseKind?: PauseKind } {
  const { pausedUntil: rate, pauseReason, windowUntil, windowLabel } = status;
  const windowPaused = windowUntil !== undefined && windowLabel !== undefined && now < windowUntil;
  const kind = windowPaused ? { pauseKind: "window" as const } : {};
  if (windowUntil !== undefined && windowLabel !== undefined && (rate === undefined || windowUntil >= rate)) {
    return { pausedUntil: windowUntil, pauseReason: windowSay.usedUpReason(windowLabel, windowUntil, now), ...kind };
  }
  return rate === undefined ? {} : { pausedUntil: rate, pauseReason: pauseReason || say.PAUSED_BY_429, ...kind };
}

/** Why waiters wait for the window, as the local pool says it: the probe is out, or resuming waiters wait for the reset. */
function waitOf(status: StatusResult, now: number): { waitReason?: string } {
  const { windowLabel: label, windowUntil: until } = status;
  if (label === undefined) return {};
  if (status.probing && status.queued > 0) return { waitReason: windowSay.probingReason(label) };
  if (status.resuming > 0 && until !== undefined && now < until) return { waitReason: windowSay.resumeReason(label, until, now) };
  return {};
}

/** The script's `status` answer as the entry every host shows; `now` on Redis's clock. */
export function statusEntry(providerId: string, status: StatusResult, host: HostSide, now: number): SharedStatusEntry {
  const { limit, active, queued, cooldownMs, autoReduced, autoReducedFrom = -1, recycling, hosts } = status;
  const { pausedUntil, pauseReason, pauseKind } = pauseOf(status, now);
  const notice =
    status.loweredAgainMs === undefined
      ? say.reductionNotice(providerId, autoReducedFrom, limit)
      : say.loweredAgainNotice(providerId, status.loweredAgainMs, limit);
  return {
    providerId,
    limit,
    active,
    queued,
    paused: pausedUntil !== undefined,
    ...(pausedUntil === undefined ? {} : { pausedUntil, pauseReason }),
    ...(pauseKind === undefined ? {} : { pauseKind }),
    cooldownMs,
    autoReduced,
    ...(autoReduced ? { autoReducedFrom, notice } : {}),
    noticeDismissed: host.noticeDismissed,
    recycling,
    ...(host.waits ? { waitP50Ms: host.waits.p50, waitP95Ms: host.waits.p95 } : {}),
    ...(host.usageGate ? { usageGate: host.usageGate } : {}),
    shared: true,
    hosts,
    ...waitOf(status, now),
    ...(status.rejoinHoldUntil === undefined ? {} : { rejoinHoldUntil: status.rejoinHoldUntil, waitReason: rejoinReason(providerId, status.rejoinHoldUntil, now) }),
    ...(status.windowLabel === undefined
      ? {}
      : { window: { label: status.windowLabel, probing: status.probing, ...(status.windowUntil === undefined ? {} : { until: status.windowUntil }) } }),
    sightings: sightingsOf(status.sightings),
    ...(status.resuming > 0 ? { resumingQueued: status.resuming } : {}),
  };
}

/** What this host adds to the entry Redis gave before it is shown: the hold, and why agents wait. */
export interface HostAdds {
  /** On the host's clock, as the entry's times are by now (redis-time.ts). */
  now: number;
  held: number;
  holdReason: string | undefined;
  unreachable: boolean;
}

/**
 * The entry as this host shows it, without the fields only the host reads. A window's pause
 * reason is worded again on the host's clock: the one Redis's status gave read Redis's.
 */
export function shownEntry(last: SharedStatusEntry, adds: HostAdds): ConcurrencyStatusEntry {
  const { window, sightings: _sightings, rejoinHoldUntil, resumingQueued, ...entry } = last;
  const { now } = adds;
  entry.queued += adds.held;
  if (window?.until !== undefined && entry.pausedUntil === window.until) entry.pauseReason = windowSay.usedUpReason(window.label, window.until, now);
  // The entry may be a read old: a reset that passed since ends what the window's pause says.
  if (entry.pauseKind === "window" && (window?.until === undefined || now >= window.until)) delete entry.pauseKind;
  const rejoining = rejoinHoldUntil !== undefined && now < rejoinHoldUntil ? rejoinReason(entry.providerId, rejoinHoldUntil, now) : undefined;
  const probing = window?.probing && entry.queued > 0 ? windowSay.probingReason(window.label) : undefined;
  const resuming =
    resumingQueued !== undefined && window?.until !== undefined && !window.probing && now < window.until
      ? windowSay.resumeReason(window.label, window.until, now)
      : undefined;
  const reason = adds.unreachable ? redisUnreachableReason(entry.providerId) : (rejoining ?? probing ?? resuming ?? adds.holdReason);
  if (reason !== undefined) entry.waitReason = reason;
  return entry;
}

/** Redis cannot be asked: the last entry it gave, with this host's own waiters queued at least. */
export function unreachableEntry(last: SharedStatusEntry, waitingHere: number): SharedStatusEntry {
  return { ...last, queued: Math.max(last.queued, waitingHere), waitReason: redisUnreachableReason(last.providerId) };
}

/** Before joining: the settings this host would seed, its `active` leases held, and why admissions wait. */
export function connectingEntry(providerId: string, config: PoolConfig, active: number): SharedStatusEntry {
  return {
    providerId,
    limit: config.limit,
    active,
    queued: 0,
    paused: false,
    cooldownMs: config.cooldownMs,
    autoReduced: config.autoReduced,
    noticeDismissed: config.noticeDismissed,
    recycling: 0,
    waitReason: connectingReason(providerId),
    shared: true,
    hosts: 0,
  };
}

/** The settings an entry shows, with this host's own dismissal of the banner (SPEC §7). */
export function entryConfig(entry: SharedStatusEntry, noticeDismissed: boolean): PoolConfig {
  const { limit, cooldownMs, autoReduced, autoReducedFrom } = entry;
  return { limit, cooldownMs, autoReduced, ...(autoReduced && autoReducedFrom !== undefined ? { autoReducedFrom } : {}), noticeDismissed };
}
