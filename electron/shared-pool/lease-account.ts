// This host's own account of the leases it holds on a shared provider (SPEC §7), from which
// SharedProviderPool answers the service at once while Redis hears of each change behind it:
// leases released here and not yet in Redis, those restored or moved here and not yet told to
// it, and the ttl each lease was given. Times are the host's.
import type { Lease, PersistedLease } from "../engine/pool-types";
import { hostLease } from "./redis-time";

export class LeaseAccount {
  /** Released here, not yet in Redis: no longer held as far as anybody asking this host goes. */
  private readonly releasedHere = new Set<string>();
  /** Restored or moved leases Redis has not yet been told about. */
  private readonly adopting = new Map<string, PersistedLease>();
  private readonly ttls = new Map<string, number>();

  constructor(adopt: PersistedLease[]) {
    for (const lease of adopt) this.adopting.set(lease.leaseId, lease);
  }

  /** `inRedis`: whether the shared pool holds it for this host (false before joining). */
  isHeld(leaseId: string, inRedis: (leaseId: string) => boolean): boolean {
    if (this.releasedHere.has(leaseId)) return false;
    return this.adopting.has(leaseId) || inRedis(leaseId);
  }

  ttlOf(leaseId: string): number | undefined {
    return this.ttls.get(leaseId);
  }

  /** Admitted (or adopted) with a ttl; undefined: none. */
  keepTtl(leaseId: string, ttlMs: number | undefined): void {
    if (ttlMs !== undefined) this.ttls.set(leaseId, ttlMs);
  }

  /** Redis expired it. */
  expired(leaseId: string): void {
    this.ttls.delete(leaseId);
  }

  /** Let go here: no longer held for anybody asking, until Redis has been told (`released`). */
  releasing(leaseId: string): void {
    this.releasedHere.add(leaseId);
    this.ttls.delete(leaseId);
  }

  released(leaseId: string): void {
    this.releasedHere.delete(leaseId);
  }

  /** A lease restored before joining: told to Redis on joining. */
  restoredBeforeJoining(lease: PersistedLease): void {
    this.adopting.set(lease.leaseId, lease);
  }

  /** What joining tells Redis; `adopted` once it has. */
  toAdopt(): PersistedLease[] {
    return [...this.adopting.values()];
  }

  adopted(moved: PersistedLease[]): void {
    for (const lease of moved) {
      this.keepTtl(lease.leaseId, lease.ttlMs);
      this.adopting.delete(lease.leaseId);
    }
  }

  /** Every lease this host holds: those Redis has not been told of, then those it holds (on Redis's clock: `offsetMs` ahead). */
  held(inRedis: Lease[], offsetMs: number): PersistedLease[] {
    const held: PersistedLease[] = [...this.adopting.values()].filter((lease) => !this.releasedHere.has(lease.leaseId));
    for (const lease of inRedis) {
      if (this.releasedHere.has(lease.leaseId)) continue;
      const ttlMs = this.ttls.get(lease.leaseId);
      const { providerId: _provider, enqueuedAt: _enqueued, ...view } = hostLease(lease, offsetMs);
      held.push(ttlMs === undefined ? view : { ...view, ttlMs });
    }
    return held;
  }
}
