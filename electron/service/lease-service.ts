// The lease operations of SPEC §3 and the proxy's lease rides (SPEC §6), as the service offers
// them: the lease book says which provider holds which lease, the journal keeps held API leases
// on disk, and an admission is answered only once it is saved.
import type { Admission, HistoryEvent, LeasesView, StopKind } from "../../shared/types";
import { SETTINGS } from "../../shared/provider-settings";
import type { Clock } from "../engine/clock";
import type { AcquireOptions, AcquireResult, ProviderPool } from "../engine/pool-types";
import type { SettingsStore } from "../settings/settings-store";
import { LeaseBook } from "./lease-book";
import { LeaseJournal } from "./lease-journal";
import type { DailyBudgets } from "./daily-budgets";
import type { ServiceMetrics } from "./metrics";
import type { Input } from "./operation-input";
import type { Provider, ProviderRegistry } from "./provider-registry";
import { abandoned, queueTimeout, shuttingDown, unknownLease, unknownProvider } from "./service-error";

const RELEASE_NOT_SAVED = "the slot is free, but a restart may bring the lease back until it expires";

export interface AcquireInput {
  providerId: string;
  agentId?: string;
  waiterId?: string;
  timeoutMs?: number;
  /** This lease's time-to-live (SPEC §3 `ttlMs`); the host's leaseTtlMs when absent. */
  ttlMs?: number;
  signal?: AbortSignal;
  /** API leases expire unless heartbeated; proxy leases pass false (the connection is the lease). */
  expires?: boolean;
  /** SPEC §8: a `headroom run --resume` waiting out a window. */
  resume?: boolean;
}

/** SPEC §8 "Waiting through a near reset": the provider's `waitForResetMs`, for its proxy requests. */
const nearResetMs = (provider: Provider): number => provider.options.waitForResetMs ?? SETTINGS.waitForResetMs.implied;

export interface LeaseServiceDeps {
  store: SettingsStore;
  clock: Clock;
  providers: ProviderRegistry;
  meter: ServiceMetrics;
  leaseTtlMs: number;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  /** Throws when the host is closing; acquiring and heartbeating ask first, releases never do. */
  assertOpen: () => void;
  isClosed: () => boolean;
  /** SPEC §9: a provider its daily budget pauses holds API waiters until the pause ends (daily-budgets.ts). */
  budgets?: Pick<DailyBudgets, "wait" | "blocks">;
}

export class LeaseService {
  private readonly book: LeaseBook;
  private readonly journal: LeaseJournal;

  /** Leases restore() brought back, until ready() restarts their ttl. */
  private readonly restored: string[] = [];

  constructor(private readonly deps: LeaseServiceDeps) {
    this.book = new LeaseBook(() => deps.clock.now());
    this.journal = new LeaseJournal(deps.store, deps.clock, () => deps.providers.leasesToKeep());
  }

  /** The held leases saved before a restart come back to the providers still known. */
  restore(): void {
    for (const lease of this.deps.store.leases.read()) {
      const provider = this.deps.providers.get(lease.providerId);
      if (!provider) continue;
      this.book.hold(lease.leaseId, lease.providerId);
      provider.pool.restoreLease(lease, lease.ttlMs ?? this.deps.leaseTtlMs);
      this.restored.push(lease.leaseId);
    }
  }

  /**
   * SPEC §3: the host now answers, so a restored lease's ttl counts from here (its agent could not
   * heartbeat while the host was starting); as if each restored lease heartbeated once.
   */
  ready(): void {
    for (const leaseId of this.restored.splice(0)) this.poolOfLease(leaseId)?.heartbeat(leaseId);
  }

  /** A pool's leases changed in a way that may be written lazily (a heartbeat, an expiry). */
  changed(): void {
    this.journal.changed();
  }

  /** Remembered for an hour as ended, then forgotten: a killed agent's id does not live on. */
  expired(leaseId: string): void {
    const providerId = this.book.providerOf(leaseId);
    if (providerId !== undefined) this.deps.meter.released(providerId, "failure");
    this.book.end(leaseId);
  }

  /** A removed provider's leases end with it: a late release of one answers `{ released: false }`. */
  endAllOf(provider: Provider): void {
    for (const lease of provider.pool.heldLeases()) this.book.end(lease.leaseId);
  }

  async acquire(input: AcquireInput): Promise<Admission> {
    this.deps.assertOpen();
    const askedAt = this.deps.clock.now();
    const result = await this.admission(input, askedAt);
    if (!result.ok) {
      if (result.failure.kind === "timeout") throw queueTimeout(input.providerId, input.timeoutMs ?? 0);
      if (result.failure.kind === "aborted") throw abandoned();
      throw this.deps.isClosed() ? shuttingDown() : unknownProvider(input.providerId, this.deps.providers.ids());
    }
    const { lease } = result;
    this.book.hold(lease.leaseId, lease.providerId);
    if (lease.expiresAt !== undefined) {
      // Nothing is acknowledged that is not saved: a lease that cannot be written goes back at once.
      try {
        await this.journal.saved("no slot was taken");
      } catch (error) {
        this.undelivered(lease.leaseId);
        throw error;
      }
    }
    this.deps.meter.admitted(lease.providerId, lease.admittedAt - askedAt);
    if (input.resume === true) {
      const who = input.agentId ?? "an agent";
      this.deps.providers.stopped.resuming(lease.providerId, input.agentId);
      this.deps.onEvent({ kind: "resumed", providerId: lease.providerId, message: `${who} resumes on ${lease.providerId} (headroom run --resume)` });
    }
    return {
      leaseId: lease.leaseId,
      providerId: lease.providerId,
      admittedAt: lease.admittedAt,
      ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
    };
  }

  /**
   * A proxied request's slot when one is free now (a local provider, nobody queued), held and
   * counted as acquire() would, with no promise; undefined when it must queue or Redis decides.
   */
  admitNow(providerId: string, agentId: string | undefined): string | undefined {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    const options: AcquireOptions = { proxied: true, nearResetMs: nearResetMs(provider) };
    if (agentId !== undefined) options.agentId = agentId;
    const lease = provider.pool.admitNow?.(options);
    if (!lease) return undefined;
    this.book.hold(lease.leaseId, providerId);
    this.deps.meter.admitted(providerId, 0);
    return lease.leaseId;
  }

  /** Waits in the provider's queue; a provider shared or made local meanwhile queues the waiter again on its new pool. */
  private async admission(input: AcquireInput, askedAt: number): Promise<AcquireResult> {
    const { providers, clock, budgets } = this.deps;
    // Proxy requests are refused while a budget pauses (the proxy asks first), never held.
    const api = input.expires !== false;
    for (;;) {
      let provider = providers.require(input.providerId);
      const held = api ? budgets?.wait(input.providerId, input.timeoutMs === undefined ? undefined : askedAt + input.timeoutMs, input.signal) : undefined;
      if (held) {
        const failed = await held;
        if (failed) return failed;
        provider = providers.require(input.providerId);
      }
      const pool = provider.pool;
      const timeoutMs = input.timeoutMs === undefined ? undefined : Math.max(0, input.timeoutMs - (clock.now() - askedAt));
      // A proxy lease (no expiry) is a proxied request: a window hold may let it through (SPEC §8).
      // Built by assignment, not spreads: once per proxied request (issue 27 item 6).
      const options: AcquireOptions = input.expires === false ? { proxied: true, nearResetMs: nearResetMs(provider) } : { ttlMs: input.ttlMs ?? this.deps.leaseTtlMs };
      if (input.agentId !== undefined) options.agentId = input.agentId;
      if (input.waiterId !== undefined) options.waiterId = input.waiterId;
      if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
      if (input.signal !== undefined) options.signal = input.signal;
      if (input.resume === true) options.resume = true;
      const result = await pool.acquire(options);
      // The budget was reached while it queued: the slot goes back unused and it waits for the budget.
      if (api && result.ok && budgets?.blocks(input.providerId)) {
        pool.returnUndelivered(result.lease.leaseId);
        continue;
      }
      const moved =
        !result.ok && result.failure.kind === "removed" && !this.deps.isClosed() && providers.get(input.providerId)?.pool !== pool;
      if (!moved || !providers.has(input.providerId)) return result;
    }
  }

  /**
   * The admission could not be handed to the client: the slot returns at once, no cooldown.
   * Allowed while closing, like every release: a slot is never stranded by shutdown.
   */
  undelivered(leaseId: string): void {
    const providerId = this.book.providerOf(leaseId);
    if (providerId === undefined) return;
    this.deps.providers.get(providerId)?.pool.returnUndelivered(leaseId);
    this.book.end(leaseId);
  }

  heartbeat({ leaseId }: Input<"heartbeat">): { leaseId: string; expiresAt?: number } {
    this.deps.assertOpen();
    const pool = this.poolOfLease(leaseId);
    const lease = pool?.heartbeat(leaseId);
    if (!lease) throw unknownLease(leaseId);
    return { leaseId, ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }) };
  }

  /** Releases are accepted while closing: the slot must come back whatever the host is doing. */
  release({ leaseId, outcome, retryAfterMs }: Input<"release">): { released: boolean } {
    const pool = this.poolOfLease(leaseId);
    if (pool?.release(leaseId, outcome, retryAfterMs)) {
      this.deps.meter.released(pool.providerId, outcome);
      this.book.end(leaseId);
      return { released: true };
    }
    if (this.book.endedRecently(leaseId)) return { released: false };
    throw unknownLease(leaseId);
  }

  /** Accepted while closing, like any release. */
  releaseByHand({ leaseId }: Input<"releaseByHand">): { released: boolean } {
    const providerId = this.book.providerOf(leaseId);
    const answer = this.release({ leaseId, outcome: "failure" });
    if (answer.released && providerId !== undefined) {
      this.deps.onEvent({
        kind: "lease_released_by_hand",
        providerId,
        message: `A lease of ${providerId} was released by hand.`,
      });
    }
    return answer;
  }

  /**
   * Resolves once every lease change made so far is on disk (group commit): a release is
   * answered only after this. When it cannot be saved the slot stays freed (a release must
   * never keep a slot) and this rejects with 503 naming the folder.
   */
  saved(): Promise<void> {
    return this.journal.saved(RELEASE_NOT_SAVED);
  }

  /**
   * A proxy request rides on a held lease of this provider (SPEC §6 "Lease-scoped requests"):
   * true when it may, and the ride keeps the lease alive. false falls back to normal gating.
   */
  ride(leaseId: string, providerId: string): boolean {
    const pool = this.poolOfLease(leaseId);
    if (this.book.providerOf(leaseId) !== providerId || !pool) return false;
    // Unguarded: a ride that ends while the host closes must still settle its route claim.
    pool.heartbeat(leaseId);
    return true;
  }

  /**
   * A request of `label`'s was refused by a used-up window or a budget (SPEC §8): the lease it
   * rode says so (`stoppedBy`), and a window's refusal counts it among who stopped.
   */
  stopped(providerId: string, kind: StopKind, label: string, rideOn?: string): void {
    if (rideOn !== undefined) this.book.stop(rideOn, kind);
    if (kind !== "window") return;
    const provider = this.deps.providers.get(providerId);
    const leaseAgent = rideOn === undefined ? undefined : provider?.pool.heldLeases().find((lease) => lease.leaseId === rideOn)?.agentId;
    if (provider) this.deps.providers.stopped.note(providerId, label, leaseAgent);
  }

  /** The leases answer with each held lease's `stoppedBy`. */
  withStops(view: LeasesView): LeasesView {
    if (!view.held.some((lease) => this.book.stoppedBy(lease.leaseId) !== undefined)) return view;
    const held = view.held.map((lease) => {
      const stoppedBy = this.book.stoppedBy(lease.leaseId);
      return stoppedBy === undefined ? lease : { ...lease, stoppedBy };
    });
    return { ...view, held };
  }

  /** A 429 on a ride: pauses and may reduce as the lease's release would; the lease stays held. */
  rideRateLimited(leaseId: string, retryAfterMs?: number): void {
    this.poolOfLease(leaseId)?.rateLimitedOn(leaseId, retryAfterMs);
  }

  /** Writes what is pending and stops the lazy timer; held leases stay on disk. */
  close(): void {
    this.journal.close();
  }

  private poolOfLease(leaseId: string): ProviderPool | undefined {
    const providerId = this.book.providerOf(leaseId);
    const pool = providerId === undefined ? undefined : this.deps.providers.get(providerId)?.pool;
    if (pool && !pool.isHeld(leaseId)) {
      // Expired inside the pool: remember it so a late release answers { released: false }.
      this.book.end(leaseId);
      return undefined;
    }
    return pool;
  }
}
