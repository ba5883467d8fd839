// Redis's answers for this host's waiters and leases (its inbox, inbox.ts), delivered: an
// admission goes to its waiter, a timeout answers one, a TTL lease that ran out is told, and an
// ask to poll goes to the usage gate. Waiters are answered in the order Redis answered them,
// behind a TTL admission whose ttl is starting (SPEC §3: a TTL lease runs its ttl from delivery).
import type { Lease } from "../engine/pool-types";
import type { WaitStats } from "../engine/wait-stats";
import { TIMED_OUT } from "../engine/waiter-queue";
import type { EpochLink } from "./epoch-link";
import { readInboxEntry } from "./inbox";
import type { SharedGate } from "./shared-gate";
import { requestId, type SharedLeases } from "./shared-leases";
import type { SharedWaiters } from "./shared-waiters";

export interface InboxDeliveryDeps {
  providerId: string;
  link: EpochLink;
  waiters: SharedWaiters;
  leases: SharedLeases;
  gate: SharedGate;
  /** The waits of this host's own admissions. */
  waits: WaitStats;
  /** Runs work nobody awaits; a failure is reported, not thrown. */
  background(work: Promise<unknown>): void;
  failed(error: unknown): void;
}

export class InboxDelivery {
  /** TTL admissions whose first heartbeat is on its way: an admission told again meanwhile changes nothing. */
  private readonly starting = new Set<string>();
  /** The last answer still waiting for a TTL admission ahead of it (see inOrder). */
  private answering: Promise<void> | undefined;

  constructor(private readonly deps: InboxDeliveryDeps) {}

  deliver(inbox: string[]): void {
    const { waiters, leases, link } = this.deps;
    for (const raw of inbox) {
      const entry = readInboxEntry(raw);
      if (entry.kind === "timedOut") this.inOrder(() => waiters.timedOut(entry.waiterId));
      else if (entry.kind === "pollGate") this.deps.gate.asked(entry.askId);
      else if (entry.kind === "expired") leases.expired(entry.leaseId);
      else {
        const { leaseId, admittedAt, enqueuedAt, expiresAt } = entry;
        if (this.starting.has(leaseId)) continue; // told again while its ttl starts
        const found = waiters.admitted(leaseId);
        if (!("waiter" in found)) {
          if (found.undelivered) this.deps.background(link.call("undelivered", { leaseId, requestId: requestId(leaseId) }));
          continue;
        }
        const lease: Lease = { leaseId, providerId: this.deps.providerId, admittedAt, enqueuedAt };
        if (found.waiter.agentId !== undefined) lease.agentId = found.waiter.agentId;
        if (expiresAt !== undefined) lease.expiresAt = expiresAt;
        leases.held.hold(lease, found.waiter.ttl);
        this.deps.waits.record(admittedAt, admittedAt - enqueuedAt);
        if (found.waiter.ttl < 0) this.inOrder(() => waiters.answer(leaseId, { ok: true, lease }));
        else this.startTtl(leaseId);
      }
    }
  }

  /** Resolves once every operation sent has been answered and its answers delivered. */
  async settled(): Promise<void> {
    await this.deps.link.settled();
    while (this.answering) {
      await this.answering;
      await this.deps.link.settled();
    }
  }

  /**
   * Redis starts a TTL lease's expiry with this first heartbeat, sent as the admission arrives,
   * so one a stalled Redis answered late still gets its full ttl. A waiter that gave up
   * meanwhile hands its admission back unused.
   */
  private startTtl(leaseId: string): void {
    const { waiters, leases } = this.deps;
    this.starting.add(leaseId);
    const beat = leases.heartbeat(leaseId);
    this.inOrder(async () => {
      const lease = await beat.finally(() => this.starting.delete(leaseId));
      if (!lease) {
        leases.held.forget(leaseId);
        waiters.answer(leaseId, TIMED_OUT);
      } else if (waiters.waits(leaseId)) waiters.answer(leaseId, { ok: true, lease });
      else await leases.returnUndelivered(leaseId);
    });
  }

  /** Waiters are answered in the order Redis answered them: behind a TTL admission whose ttl is starting. */
  private inOrder(answer: () => Promise<void> | void): void {
    const work = this.answering ? this.answering.then(answer) : answer();
    if (!work) return;
    const tail: Promise<void> = work
      .catch((error: unknown) => this.deps.failed(error))
      .finally(() => {
        if (this.answering === tail) this.answering = undefined;
      });
    this.answering = tail;
  }
}
