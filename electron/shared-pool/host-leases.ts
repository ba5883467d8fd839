// The leases one host holds on a shared provider, as it was handed them, with each TTL lease's
// ttl: what it lists, heartbeats, and registers again in a Redis that lost them (or adopts).
import type { Lease, PersistedLease } from "../engine/pool-types";
import type { LeaseArg } from "./pool-protocol";

/** The script's answers to `adopt` for a lease another host holds, and for one that had expired. */
const HELD_ELSEWHERE = -2;
export const EXPIRED = -3;

/** A lease's ttl for heartbeats: its own, else its original span (as the local pool restores it). */
const ttlOf = ({ ttlMs, expiresAt, admittedAt }: PersistedLease): number =>
  ttlMs ?? (expiresAt === undefined ? -1 : Math.max(0, expiresAt - admittedAt));

const scriptFields = (lease: PersistedLease, ttl: number): LeaseArg => ({
  leaseId: lease.leaseId,
  admittedAt: lease.admittedAt,
  expiresAt: lease.expiresAt ?? -1,
  ttl,
  agentId: lease.agentId ?? "",
});

export class HostLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly ttls = new Map<string, number>();

  constructor(private readonly providerId: string) {}

  hold(lease: Lease, ttl: number | undefined): void {
    this.leases.set(lease.leaseId, lease);
    if (lease.expiresAt !== undefined && ttl !== undefined) this.ttls.set(lease.leaseId, ttl);
  }

  get(leaseId: string): Lease | undefined {
    return this.leases.get(leaseId);
  }

  has(leaseId: string): boolean {
    return this.leases.has(leaseId);
  }

  forget(leaseId: string): void {
    this.leases.delete(leaseId);
    this.ttls.delete(leaseId);
  }

  list(): Lease[] {
    return [...this.leases.values()];
  }

  /** Every lease held, as `rejoin` takes them. */
  scriptArgs(): LeaseArg[] {
    return this.list().map((lease) => scriptFields(lease, this.ttls.get(lease.leaseId) ?? -1));
  }

  /** The leases to adopt, as `adopt` takes them. */
  static adoptArgs(leases: PersistedLease[]): LeaseArg[] {
    return leases.map((lease) => scriptFields(lease, ttlOf(lease)));
  }

  /** Holds an adopted lease with the expiry Redis gave it (-1: none), unless it is not this host's to hold. */
  adopted(persisted: PersistedLease, expiresAt: number): void {
    if (expiresAt === HELD_ELSEWHERE || expiresAt === EXPIRED) return;
    const { leaseId, agentId, admittedAt } = persisted;
    const lease: Lease = { leaseId, providerId: this.providerId, admittedAt, enqueuedAt: admittedAt };
    if (agentId !== undefined) lease.agentId = agentId;
    if (expiresAt >= 0) lease.expiresAt = expiresAt;
    this.hold(lease, ttlOf(persisted));
  }
}
