// The leases this host holds on a shared provider and what happens to them (SPEC §1, §3, §7):
// releases, 429s and the early pause, heartbeats, adoption, expiry. The script judges; this
// tells the host's history what it judged and keeps the host's own account of its leases.
import { randomUUID } from "node:crypto";
import type { HistoryKind, LeaseOutcome } from "../../shared/types";
import * as say from "../engine/pool-messages";
import type { Lease, PersistedLease } from "../engine/pool-types";
import type { EpochLink } from "./epoch-link";
import { EXPIRED, HostLeases } from "./host-leases";
import { type Judged429, list } from "./pool-protocol";

/** Names one release: a resend of it gets its first answer; another release of the lease does not. */
export const requestId = (leaseId: string): string => `${leaseId}@${randomUUID()}`;

export interface SharedLeasesDeps {
  providerId: string;
  link: EpochLink;
  clock: { now(): number };
  event(kind: HistoryKind, message: string): void;
  onLeaseExpired?: (leaseId: string) => void;
  /** A 429 lowered the limit. */
  reduced(): void;
  /** A lease id of this host's from before a restart (see SharedWaiters.arrivedBefore). */
  arrivedBefore(leaseId: string): void;
}

export class SharedLeases {
  /** The leases this host was handed and has not released: what it would re-register. */
  readonly held: HostLeases;

  constructor(private readonly deps: SharedLeasesDeps) {
    this.held = new HostLeases(deps.providerId);
  }

  async release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const reply = await this.deps.link.call("release", { leaseId, outcome, retryAfter: retryAfterMs ?? "", requestId: requestId(leaseId) });
    if (!reply?.released) return false;
    this.held.forget(leaseId);
    if (outcome === "rate_limited") this.told429(reply, now, retryAfterMs);
    return true;
  }

  async rateLimitedOn(leaseId: string, retryAfterMs?: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const reply = await this.deps.link.call("rateLimitedOn", { leaseId, retryAfter: retryAfterMs ?? "" });
    if (!reply?.held) return false;
    this.told429(reply, now, retryAfterMs);
    return true;
  }

  /** The history of a 429 the script judged. */
  private told429(judged: Partial<Judged429>, now: number, retryAfterMs: number | undefined): void {
    const { providerId } = this.deps;
    const { extended, pausedUntil = now, reduced, limit = 0, loweredAgainMs } = judged;
    this.deps.event("rate_limited", say.rateLimitedMessage(providerId, retryAfterMs));
    if (extended) this.deps.event("paused", say.pausedMessage(providerId, pausedUntil - now));
    if (!reduced) return;
    this.deps.reduced();
    const sentence =
      loweredAgainMs === undefined
        ? say.reductionNotice(providerId, limit + 1, limit)
        : say.loweredAgainNotice(providerId, loweredAgainMs, limit);
    this.deps.event("reduced", sentence);
  }

  async pauseUntil(untilMs: number, reason: string): Promise<void> {
    const now = this.deps.clock.now();
    const reply = await this.deps.link.call("pauseUntil", { untilAt: untilMs, reason });
    if (reply?.paused && reply.pausedUntil !== undefined) {
      this.deps.event("paused", say.earlyPauseMessage(this.deps.providerId, reply.pausedUntil - now));
    }
  }

  async returnUndelivered(leaseId: string): Promise<boolean> {
    const returned = (await this.deps.link.call("undelivered", { leaseId, requestId: requestId(leaseId) }))?.released === true;
    if (returned) this.held.forget(leaseId);
    return returned;
  }

  async heartbeat(leaseId: string): Promise<Lease | undefined> {
    const reply = await this.deps.link.call("heartbeat", { leaseId });
    if (!reply?.held) return undefined;
    const known = this.held.get(leaseId) ?? { leaseId, providerId: this.deps.providerId, admittedAt: -1, enqueuedAt: -1 };
    if (reply.expiresAt === undefined) return known;
    const renewed: Lease = { ...known, expiresAt: reply.expiresAt };
    this.held.hold(renewed, undefined);
    return renewed;
  }

  async adopt(leases: PersistedLease[]): Promise<void> {
    if (leases.length === 0) return;
    const reply = await this.deps.link.call("adopt", { leases: JSON.stringify(HostLeases.adoptArgs(leases)) });
    if (!reply) return;
    const expiries = list(reply.expiries);
    leases.forEach((lease, i) => {
      this.deps.arrivedBefore(lease.leaseId);
      const expiresAt = expiries[i] ?? EXPIRED;
      if (expiresAt === EXPIRED) this.told(lease.leaseId, lease.agentId);
      else this.held.adopted(lease, expiresAt);
    });
  }

  /** A TTL lease of this host's ran out in Redis and was released as a failure. */
  expired(leaseId: string): void {
    const agentId = this.held.get(leaseId)?.agentId;
    this.held.forget(leaseId);
    this.told(leaseId, agentId);
  }

  private told(leaseId: string, agentId: string | undefined): void {
    this.deps.event("lease_expired", say.leaseExpiredMessage(this.deps.providerId, leaseId, agentId));
    this.deps.onLeaseExpired?.(leaseId);
  }
}
