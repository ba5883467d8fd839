// Times cross between a shared pool (on Redis's clock, redis-clock.ts) and the service (on the
// host's): Redis's time is the host's plus the measured offset.
import type { LeasesView } from "../../shared/types";
import type { Lease, PersistedLease } from "../engine/pool-types";
import type { SharedStatusEntry } from "./shared-status";

export function hostLease(lease: Lease, offsetMs: number): Lease {
  return {
    ...lease,
    admittedAt: lease.admittedAt - offsetMs,
    enqueuedAt: lease.enqueuedAt - offsetMs,
    ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt - offsetMs }),
  };
}

export function redisLease(lease: PersistedLease, offsetMs: number): PersistedLease {
  return {
    ...lease,
    admittedAt: lease.admittedAt + offsetMs,
    ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt + offsetMs }),
  };
}

/** A status entry Redis gave, on the host's clock, without the reason it waits (the pool says that itself). */
export function hostStatus(status: SharedStatusEntry, offsetMs: number): SharedStatusEntry {
  const { waitReason: _reason, ...entry } = status;
  return {
    ...entry,
    ...(entry.pausedUntil === undefined ? {} : { pausedUntil: entry.pausedUntil - offsetMs }),
    ...(entry.window?.until === undefined ? {} : { window: { ...entry.window, until: entry.window.until - offsetMs } }),
    ...(entry.rejoinHoldUntil === undefined ? {} : { rejoinHoldUntil: entry.rejoinHoldUntil - offsetMs }),
    ...(entry.usageGate === undefined ? {} : { usageGate: { ...entry.usageGate, checkedAt: entry.usageGate.checkedAt - offsetMs } }),
  };
}

export function hostLeaseList(list: LeasesView, offsetMs: number): LeasesView {
  return {
    held: list.held.map((lease) => ({
      ...lease,
      admittedAt: lease.admittedAt - offsetMs,
      ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt - offsetMs }),
    })),
    waiting: list.waiting.map((waiter) => ({ ...waiter, since: waiter.since - offsetMs })),
  };
}
