// The leases a pool holds, with their TTL timers. A lease expires at its expiresAt unless
// heartbeated; leases without a ttl (proxy leases: the connection is the lease) never do.
// The Lease handed out is the record kept: an admission allocates nothing else here, and
// only TTL leases carry the extra bookkeeping of an expiry.
import type { Clock, TimerHandle } from "./clock";
import type { Lease, PersistedLease } from "./pool-types";

interface Expiry {
  ttlMs: number;
  timer: TimerHandle;
}

/** What a released lease tells the 429 rule: was it admitted before the limit was last lowered? */
export type LeaseAge = "current" | "predates-reduction";

export class LeaseSlots {
  /** Replaced, never mutated, so a Lease handed out stays a stable value. */
  private readonly leases = new Map<string, Lease>();
  private readonly expiries = new Map<string, Expiry>();
  /** Held when the limit was last lowered (or restored once it was): their 429s speak of the old limit. */
  private readonly older = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly onExpire: (leaseId: string) => void,
  ) {}

  get size(): number {
    return this.leases.size;
  }

  has(leaseId: string): boolean {
    return this.leases.has(leaseId);
  }

  get(leaseId: string): Lease | undefined {
    return this.leases.get(leaseId);
  }

  /** `now` is the admission's clock reading, so a TTL lease's timer needs no second one. */
  hold(lease: Lease, ttlMs: number | undefined, now: number): void {
    this.leases.set(lease.leaseId, lease);
    if (lease.expiresAt !== undefined && ttlMs !== undefined) this.startExpiry(lease.leaseId, ttlMs, lease.expiresAt - now);
  }

  /** Every lease held now was admitted under the limit just lowered. O(held), once per reduction. */
  limitLowered(): void {
    for (const leaseId of this.leases.keys()) this.older.add(leaseId);
  }

  /**
   * Re-adopts a lease from before a restart; false (and nothing held) when it expired while
   * the host was down. Its ttl for heartbeats is the given one, else its original span.
   */
  restore(persisted: PersistedLease, providerId: string, ttlMs: number | undefined, older: boolean): boolean {
    const { leaseId, agentId, admittedAt } = persisted;
    const now = this.clock.now();
    const ttl = ttlMs ?? (persisted.expiresAt === undefined ? undefined : persisted.expiresAt - admittedAt);
    // SPEC §3: its agent could not heartbeat while the host was down, so a restored lease
    // expires no sooner than its ttl after the host is back.
    const expiresAt = ttl === undefined ? undefined : Math.max(persisted.expiresAt ?? 0, now + ttl);
    if (expiresAt !== undefined && expiresAt <= now) return false;
    const lease: Lease = { leaseId, providerId, admittedAt, enqueuedAt: admittedAt };
    if (agentId !== undefined) lease.agentId = agentId;
    if (expiresAt !== undefined) lease.expiresAt = expiresAt;
    this.hold(lease, ttl, now);
    if (older) this.older.add(leaseId);
    return true;
  }

  /** Removes a held lease (release, expiry, undelivered); undefined when it was not held. */
  take(leaseId: string): LeaseAge | undefined {
    if (!this.leases.delete(leaseId)) return undefined;
    this.stopExpiry(leaseId);
    return this.older.size > 0 && this.older.delete(leaseId) ? "predates-reduction" : "current";
  }

  /** What a 429 on a held lease would say about it, without releasing it; undefined when not held. */
  ageOf(leaseId: string): LeaseAge | undefined {
    if (!this.leases.has(leaseId)) return undefined;
    return this.older.has(leaseId) ? "predates-reduction" : "current";
  }

  /** Pushes a TTL lease's expiry to ttl from now; a lease without ttl is returned unchanged. */
  heartbeat(leaseId: string): Lease | undefined {
    const lease = this.leases.get(leaseId);
    const expiry = this.expiries.get(leaseId);
    if (!lease || !expiry) return lease;
    const renewed = { ...lease, expiresAt: this.clock.now() + expiry.ttlMs };
    this.leases.set(leaseId, renewed);
    this.stopExpiry(leaseId);
    this.startExpiry(leaseId, expiry.ttlMs, expiry.ttlMs);
    return renewed;
  }

  persisted(): PersistedLease[] {
    const out: PersistedLease[] = [];
    for (const lease of this.leases.values()) {
      const ttlMs = this.expiries.get(lease.leaseId)?.ttlMs;
      out.push({
        leaseId: lease.leaseId,
        ...(lease.agentId === undefined ? {} : { agentId: lease.agentId }),
        admittedAt: lease.admittedAt,
        ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
        ...(ttlMs === undefined ? {} : { ttlMs }),
      });
    }
    return out;
  }

  clear(): void {
    for (const { timer } of this.expiries.values()) this.clock.clearTimeout(timer);
    this.expiries.clear();
    this.leases.clear();
    this.older.clear();
  }

  private startExpiry(leaseId: string, ttlMs: number, delayMs: number): void {
    this.expiries.set(leaseId, { ttlMs, timer: this.clock.setTimeout(() => this.onExpire(leaseId), delayMs) });
  }

  private stopExpiry(leaseId: string): void {
    if (this.expiries.size === 0) return;
    const expiry = this.expiries.get(leaseId);
    if (!expiry) return;
    this.clock.clearTimeout(expiry.timer);
    this.expiries.delete(leaseId);
  }
}
