// One provider's concurrency pool (SPEC §1): the slots, TTL leases, release cooldowns and the
// usage gate, wired to who goes in when (admission.ts: the FIFO queue, its rule, the watchdog),
// what a 429 does (rate-limit-policy.ts: its pause, the early pause, the reduction) and what plan
// windows do (window-rules.ts: their pause, probe and hold). This is the face the service calls.
// Pure: time and timers come from deps.clock, everything else leaves through the deps callbacks.
import type { ConcurrencyStatusEntry, HistoryKind, LeaseOutcome, UpstreamLimits, UsageGateReading } from "../../shared/types";
import { checkCooldownMs } from "../../shared/validate";
import { AdaptiveLimit, valid } from "./adaptive-limit";
import { Admission, type QuietSince } from "./admission";
import { LeaseSlots } from "./lease-slots";
import * as say from "./pool-messages";
import type {
  AcquireOptions,
  AcquireResult,
  GateProbe,
  Lease,
  PersistedLease,
  PoolConfig,
  PoolDeps,
  ProviderPool,
} from "./pool-types";
import { RateLimitPolicy } from "./rate-limit-policy";
import { RecyclingSlots } from "./recycling-slots";
import { UsageGate } from "./usage-gate";
import { REMOVED } from "./waiter-queue";
import { WindowRules } from "./window-rules";

const DEFAULT_WATCHDOG_MS = 30_000;
const NO_OPTIONS: AcquireOptions = Object.freeze({});

export function createProviderPool(config: PoolConfig, deps: PoolDeps): ProviderPool {
  return new Pool(config, deps);
}

class Pool implements ProviderPool {
  readonly providerId: string;
  private readonly clock: PoolDeps["clock"];
  private readonly limit: AdaptiveLimit;
  private readonly held: LeaseSlots;
  private readonly recycling: RecyclingSlots;
  private readonly gate: UsageGate;
  private readonly rateLimits: RateLimitPolicy;
  readonly windows: WindowRules;
  private readonly admission: Admission;
  private disposed = false;

  constructor(
    config: PoolConfig,
    private readonly deps: PoolDeps,
  ) {
    this.providerId = deps.providerId;
    const clock = (this.clock = deps.clock);
    const driven = () => this.notify(this.admission.drive());
    const event = (kind: HistoryKind, message: string) => this.event(kind, message);
    const timeOutBefore = (until: number) => this.admission.queue.timeOutBefore(until);
    this.limit = new AdaptiveLimit(config);
    this.held = new LeaseSlots(clock, (leaseId) => this.expire(leaseId));
    this.recycling = new RecyclingSlots(clock, valid(checkCooldownMs(config.cooldownMs)), driven);
    this.gate = new UsageGate({
      clock,
      limit: () => this.limit.value,
      drive: () => {
        if (this.admission.drive()) this.notify(true);
      },
      changed: () => this.notify(false),
    });
    this.gate.set(deps.usageProbe);
    this.rateLimits = new RateLimitPolicy({
      providerId: this.providerId,
      clock,
      limit: this.limit,
      windowBlocks: () => this.windows.blocks(),
      pauseEnded: driven,
      timeOutBefore,
      event,
      limitLowered: () => this.held.limitLowered(),
      configChanged: () => this.deps.onConfigChange?.(this.config()),
    });
    this.windows = new WindowRules(clock, this.providerId, this.rateLimits.pause, {
      drive: driven,
      event,
      timeOutBefore,
      windowPaused: (until) => this.admission.windowPaused(until),
      ...(deps.recentAgent ? { recentAgent: deps.recentAgent } : {}),
    });
    const { limit, held, recycling, windows, gate } = this;
    this.admission = new Admission({
      providerId: this.providerId,
      clock,
      newId: deps.newId,
      parts: { limit, held, recycling, windows, gate },
      notify: (leasesChanged) => this.notify(leasesChanged),
      watchdogMs: deps.watchdogMs ?? DEFAULT_WATCHDOG_MS,
      stalled: (quietForMs, since) => this.recover(quietForMs, since),
    });
  }

  // ── admission ──────────────────────────────────────────────────────────────

  acquire(options: AcquireOptions = NO_OPTIONS): Promise<AcquireResult> {
    if (this.disposed) return Promise.resolve(REMOVED);
    return this.admission.acquire(options);
  }

  admitNow(options: AcquireOptions): Lease | undefined {
    return this.disposed ? undefined : this.admission.admitNow(options);
  }

  private notify(leasesChanged: boolean): void {
    if (leasesChanged) this.deps.onLeasesChange?.();
    this.deps.onChange?.();
  }

  private event(kind: HistoryKind, message: string): void {
    this.deps.onEvent?.({ kind, message });
  }

  // ── release ────────────────────────────────────────────────────────────────

  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): boolean {
    const age = this.held.take(leaseId);
    if (!age) return false;
    // The cooldown first: a probe's release that opens the window drives the queue at once,
    // and the slot it freed is still cooling down (SPEC §1).
    this.recycling.released();
    this.windows.released(leaseId, outcome);
    if (outcome === "success") this.rateLimits.succeeded();
    else if (outcome === "rate_limited") this.rateLimits.rateLimited(age, retryAfterMs);
    this.admission.drive();
    this.notify(true);
    return true;
  }

  returnUndelivered(leaseId: string): boolean {
    if (!this.held.take(leaseId)) return false;
    this.windows.undelivered(leaseId);
    this.admission.drive();
    this.notify(true);
    return true;
  }

  rateLimitedOn(leaseId: string, retryAfterMs?: number): boolean {
    const age = this.held.ageOf(leaseId);
    if (!age) return false;
    this.rateLimits.rateLimited(age, retryAfterMs);
    this.notify(false);
    return true;
  }

  noteUpstreamLimits(reading: UpstreamLimits, fromSuccess: boolean): void {
    this.rateLimits.upstreamReading(reading, fromSuccess);
    this.notify(false);
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  heartbeat(leaseId: string): Lease | undefined {
    const before = this.held.get(leaseId);
    const after = this.held.heartbeat(leaseId);
    if (after !== before) this.notify(true);
    return after;
  }

  private expire(leaseId: string): void {
    const lease = this.held.get(leaseId);
    if (!lease) return;
    this.event("lease_expired", say.leaseExpiredMessage(this.providerId, leaseId, lease.agentId));
    this.release(leaseId, "failure");
    this.deps.onLeaseExpired?.(leaseId);
  }

  isHeld(leaseId: string): boolean {
    return this.held.has(leaseId);
  }

  /**
   * A restored lease holds a slot at once (over the limit if it must: held leases are never
   * revoked) and expires no sooner than its ttl from now (SPEC §3). Only one with no time left
   * at all (a ttl of 0) is expired here and now, its cooldown counted from when it expired.
   */
  restoreLease(persisted: PersistedLease, ttlMs?: number): void {
    if (this.disposed || this.held.has(persisted.leaseId)) return;
    // Once reduced, whether it predates the last reduction is unknown, so its 429 does not reduce again.
    if (!this.held.restore(persisted, this.providerId, ttlMs, this.limit.reduced)) {
      const { leaseId, agentId, expiresAt = 0 } = persisted;
      this.event("lease_expired", say.leaseExpiredMessage(this.providerId, leaseId, agentId));
      this.deps.onLeaseExpired?.(leaseId);
      this.recycling.expiredAt(expiresAt);
    }
    this.notify(true);
  }

  heldLeases(): PersistedLease[] {
    return this.held.persisted();
  }

  leases(): ReturnType<ProviderPool["leases"]> {
    const held = this.held.persisted().map(({ ttlMs: _ttl, ...view }) => view);
    const { queue } = this.admission;
    const reason = queue.resuming > 0 ? this.windows.resumeReason(this.clock.now()) : undefined;
    const waiting = queue.views();
    return { held, waiting: reason === undefined ? waiting : waiting.map((w) => (w.resuming ? { ...w, waitReason: reason } : w)) };
  }

  // ── settings ───────────────────────────────────────────────────────────────

  setLimit(limit: number): void {
    this.limit.setByHand(limit, this.clock.now());
    this.deps.onConfigChange?.(this.config());
    this.notify(this.admission.drive());
  }

  setCooldown(cooldownMs: number): void {
    this.recycling.cooldownMs = valid(checkCooldownMs(cooldownMs));
    this.deps.onConfigChange?.(this.config());
    this.notify(false);
  }

  resume(): void {
    const windowLifted = this.windows.lift();
    if (this.rateLimits.lift() || windowLifted) this.event("resumed", say.resumedMessage(this.providerId));
    this.notify(this.admission.drive());
  }

  acceptReduction(): void {
    if (!this.limit.reduced) return;
    this.limit.setByHand(this.limit.value);
    this.deps.onConfigChange?.(this.config());
    this.notify(false);
  }

  dismissNotice(): void {
    if (!this.limit.dismiss()) return;
    this.deps.onConfigChange?.(this.config());
    this.notify(false);
  }

  setUsageProbe(usageProbe: GateProbe | undefined): void {
    this.gate.set(this.disposed ? undefined : usageProbe);
    this.notify(this.admission.drive());
  }

  // ── reading ────────────────────────────────────────────────────────────────

  config(): PoolConfig {
    return this.limit.config(this.recycling.cooldownMs);
  }

  /** O(1) in the number of waiters: everything shown is a kept count. */
  status(): ConcurrencyStatusEntry {
    const now = this.clock.now();
    const pause = this.windows.pauseFields(now);
    const windows = this.windows.views();
    const waits = this.admission.waits.percentiles(now);
    const reading = this.usageReading();
    const { queue } = this.admission;
    return {
      providerId: this.providerId,
      limit: this.limit.value,
      active: this.held.size,
      queued: queue.size,
      paused: pause.pausedUntil !== undefined,
      ...pause,
      cooldownMs: this.recycling.cooldownMs,
      ...this.limit.statusFields(this.providerId),
      recycling: this.recycling.count,
      ...(waits ? { waitP50Ms: waits.p50, waitP95Ms: waits.p95 } : {}),
      ...(reading ? { usageGate: reading } : {}),
      ...this.rateLimits.readingFields(),
      ...this.windows.waitFields(queue.size > 0, queue.size > queue.exempt, now, queue.resuming > 0),
      ...(windows ? { windows } : {}),
      ...this.windows.overageFields(),
    };
  }

  usageReading(): UsageGateReading | undefined {
    const reading = this.gate.reading();
    return reading && { ...reading };
  }

  /** The watchdog's report, with the state that let the queue stall; then the queue is driven again. */
  private recover(quietForMs: number, since: QuietSince): void {
    const message = say.watchdogMessage(this.providerId, this.admission.queue.size, quietForMs);
    this.deps.log?.(message, { ...this.status(), now: this.clock.now(), ...since });
    this.event("watchdog", message);
    this.notify(this.admission.drive());
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.admission.close();
    this.held.clear();
    this.recycling.dispose();
    this.rateLimits.pause.lift();
    this.windows.dispose();
    this.gate.dispose();
  }
}
