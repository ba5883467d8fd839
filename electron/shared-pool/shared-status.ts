// A shared provider's status entry (SPEC §1, §7) from the script's `status` reply, and what it
// says while Redis cannot be asked.
import type { ConcurrencyStatusEntry, UsageGateReading } from "../../shared/types";
import * as say from "../engine/pool-messages";

/**
 * SPEC §7 adds `shared` and `hosts` (how many hosts are live for it) to a shared provider's
 * entry; while Redis is unreachable it is the last entry Redis gave, with a `waitReason`.
 */
export type SharedStatusEntry = ConcurrencyStatusEntry & { shared: true; hosts: number; waitReason?: string };

export const redisUnreachableReason = (providerId: string): string =>
  `Redis is unreachable: admissions to shared provider ${providerId} wait until it is back, and releases are kept until then.`;

/** What only this host knows: the banner's dismissal, the waits of its own admissions, its usage gate's reading. */
export interface HostSide {
  noticeDismissed: boolean;
  waits: { p50: number; p95: number } | undefined;
  usageGate: UsageGateReading | undefined;
}

type Figures = [number, number, number, number, number, number, number, number, number];

/**
 * The `status` reply: limit, active, queued, pausedUntil, cooldownMs, autoReduced, from,
 * recycling, hosts, version, and the early pause's reason ('' for a 429's pause).
 */
export function statusEntry(providerId: string, reply: number[], host: HostSide): SharedStatusEntry {
  const [limit, active, queued, pausedUntil, cooldownMs, autoReduced, from, recycling, hosts] = reply as number[] as Figures;
  const reason = (reply as unknown[])[10];
  return {
    providerId,
    limit,
    active,
    queued,
    paused: pausedUntil !== -1,
    ...(pausedUntil === -1 ? {} : { pausedUntil, pauseReason: typeof reason === "string" && reason !== "" ? reason : say.PAUSED_BY_429 }),
    cooldownMs,
    autoReduced: autoReduced === 1,
    ...(autoReduced === 1 ? { autoReducedFrom: from, notice: say.reductionNotice(providerId, from, limit) } : {}),
    noticeDismissed: host.noticeDismissed,
    recycling,
    ...(host.waits ? { waitP50Ms: host.waits.p50, waitP95Ms: host.waits.p95 } : {}),
    ...(host.usageGate ? { usageGate: host.usageGate } : {}),
    shared: true,
    hosts,
  };
}

/** Redis cannot be asked: the last entry it gave, with this host's own waiters queued at least. */
export function unreachableEntry(last: SharedStatusEntry, waitingHere: number): SharedStatusEntry {
  return { ...last, queued: Math.max(last.queued, waitingHere), waitReason: redisUnreachableReason(last.providerId) };
}
