// The leases a pool holds, with their TTL timers. A lease expires at its expiresAt unless
// heartbeated; leases without a ttl (proxy leases: the connection is the lease) never do.
import type { Clock, TimerHandle } from "./clock";
import type { Lease, PersistedLease } from "./pool-types";

export interface Slot {
  /** Replaced, never mutated, so a Lease handed out stays a stable value. */
  lease: Lease;
  ttlMs: number | undefined;
  expiry: TimerHandle | undefined;
  /** The pool's reduction count at admission (see the pool's 429 rule). */
  generation: number;
}

export class LeaseSlots {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly clock: Clock,
    private readonly onExpire: (leaseId: string) => void,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  has(leaseId: string): boolean {
    return this.slots.has(leaseId);
  }

  get(leaseId: string): Slot | undefined {
    return this.slots.get(leaseId);
  }

  hold(lease: Lease, ttlMs: number | undefined, generation: number): void {
    const { leaseId, expiresAt } = lease;
    const expiry =
      expiresAt === undefined
        ? undefined
        : this.clock.setTimeout(() => this.onExpire(leaseId), expiresAt - this.clock.now());
    this.slots.set(leaseId, { lease, ttlMs, expiry, generation });
  }

  /**
   * Re-adopts a lease from before a restart; false (and nothing held) when it expired while
   * the host was down. Its ttl for heartbeats is the given one, else its original span.
   */
  restore(persisted: PersistedLease, providerId: string, ttlMs: number | undefined, generation: number): boolean {
    const { leaseId, agentId, admittedAt, expiresAt } = persisted;
    if (expiresAt !== undefined && expiresAt <= this.clock.now()) return false;
    const lease: Lease = { leaseId, providerId, admittedAt, enqueuedAt: admittedAt };
    if (agentId !== undefined) lease.agentId = agentId;
    if (expiresAt !== undefined) lease.expiresAt = expiresAt;
    this.hold(lease, expiresAt === undefined ? undefined : (ttlMs ?? expiresAt - admittedAt), generation);
    return true;
  }

  /** Removes a held lease (release, expiry, undelivered); undefined when it was not held. */
  take(leaseId: string): Slot | undefined {
    const slot = this.slots.get(leaseId);
    if (!slot) return undefined;
    this.slots.delete(leaseId);
    if (slot.expiry !== undefined) this.clock.clearTimeout(slot.expiry);
    return slot;
  }

  /** Pushes a TTL lease's expiry to ttl from now; a lease without ttl is returned unchanged. */
  heartbeat(leaseId: string): Lease | undefined {
    const slot = this.slots.get(leaseId);
    if (!slot || slot.ttlMs === undefined) return slot?.lease;
    const now = this.clock.now();
    slot.lease = { ...slot.lease, expiresAt: now + slot.ttlMs };
    if (slot.expiry !== undefined) this.clock.clearTimeout(slot.expiry);
    slot.expiry = this.clock.setTimeout(() => this.onExpire(leaseId), slot.ttlMs);
    return slot.lease;
  }

  persisted(): PersistedLease[] {
    const out: PersistedLease[] = [];
    for (const { lease } of this.slots.values()) {
      out.push({
        leaseId: lease.leaseId,
        ...(lease.agentId === undefined ? {} : { agentId: lease.agentId }),
        admittedAt: lease.admittedAt,
        ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
      });
    }
    return out;
  }

  clear(): void {
    for (const slot of this.slots.values()) if (slot.expiry !== undefined) this.clock.clearTimeout(slot.expiry);
    this.slots.clear();
  }
}
