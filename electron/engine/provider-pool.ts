// One provider's concurrency pool (SPEC §1): slots, a FIFO queue, release cooldowns, TTL
// leases, the usage gate and the watchdog; what a 429 does is rate-limit-policy.ts's call, what
// plan windows do (their pause, probe and hold) window-rules.ts's.
// Pure: time and timers come from deps.clock, everything else leaves through the deps callbacks.
import type { ConcurrencyStatusEntry, HistoryKind, LeaseOutcome, UpstreamLimits, UsageGateReading } from "../../shared/types";
import { checkCooldownMs } from "../../shared/validate";
import { AdaptiveLimit, valid } from "./adaptive-limit";
import { type LeaseAge, LeaseSlots } from "./lease-slots";
import { PauseWindow } from "./pause-window";
import * as say from "./pool-messages";
import type {
  AcquireOptions,
  AcquireResult,
  Lease,
  PersistedLease,
  PoolConfig,
  PoolDeps,
  ProviderPool,
} from "./pool-types";
import { QueueWatchdog } from "./queue-watchdog";
import { RateLimitPolicy } from "./rate-limit-policy";
import { RecyclingSlots } from "./recycling-slots";
import { UsageGate } from "./usage-gate";
import { WaitStats } from "./wait-stats";
import { ABORTED, REMOVED, TIMED_OUT, Waiter, type WaiterOwner, WaiterQueue } from "./waiter-queue";
import { WindowRules } from "./window-rules";

const DEFAULT_WATCHDOG_MS = 30_000;
const NO_OPTIONS: AcquireOptions = Object.freeze({});

export function createProviderPool(config: PoolConfig, deps: PoolDeps): ProviderPool {
  return new Pool(config, deps);
}

class Pool implements ProviderPool, WaiterOwner {
  readonly providerId: string;
  private readonly limit: AdaptiveLimit;
  private cooldownMs: number;

  private readonly clock: PoolDeps["clock"];
  private readonly held: LeaseSlots;
  private readonly queue: WaiterQueue;
  private readonly pause: PauseWindow;
  private readonly rateLimits: RateLimitPolicy;
  readonly windows: WindowRules;
  private readonly watchdog: QueueWatchdog;
  private readonly waits = new WaitStats();
  private gate: UsageGate | undefined;
  private readonly recycling: RecyclingSlots;
  private arrivals = 0;
  private lastAdmissionAt = Number.NEGATIVE_INFINITY;
  private queuedSince = 0;
  private disposed = false;
  private upstreamLimits: UpstreamLimits | undefined;

  constructor(
    config: PoolConfig,
    private readonly deps: PoolDeps,
  ) {
    this.providerId = deps.providerId;
    this.clock = deps.clock;
    this.limit = new AdaptiveLimit(config);
    this.cooldownMs = valid(checkCooldownMs(config.cooldownMs));
    this.queue = new WaiterQueue(this.clock, this);
    this.held = new LeaseSlots(this.clock, (leaseId) => this.expire(leaseId));
    this.pause = new PauseWindow(this.clock, () => this.notify(this.drive()));
    this.rateLimits = new RateLimitPolicy({
      providerId: this.providerId,
      clock: this.clock,
      pause: this.pause,
      limit: this.limit,
      timeOutBefore: (until) => this.queue.timeOutBefore(until),
      event: (kind, message) => this.event(kind, message),
      limitLowered: () => this.held.limitLowered(),
      configChanged: () => this.deps.onConfigChange?.(this.config()),
    });
    this.windows = new WindowRules(this.clock, this.providerId, this.pause, {
      drive: () => this.notify(this.drive()),
      event: (kind, message) => this.event(kind, message),
      timeOutBefore: (until) => this.queue.timeOutBefore(until),
      ...(deps.recentAgent ? { recentAgent: deps.recentAgent } : {}),
    });
    this.recycling = new RecyclingSlots(this.clock, () => this.notify(this.drive()));
    this.watchdog = new QueueWatchdog(this.clock, deps.watchdogMs ?? DEFAULT_WATCHDOG_MS, {
      waiting: () => this.queue.size > 0 && !this.disposed,
      quietSince: () => Math.max(this.lastAdmissionAt, this.queuedSince),
      idle: (now) =>
        this.held.size + this.recycling.count === 0 && this.windows.idle(now) && !this.gate?.holdingBack(),
      recover: (quietForMs) => this.recover(quietForMs),
    });
    this.gate = this.newGate(deps.usageProbe);
  }

  // ── admission ──────────────────────────────────────────────────────────────

  acquire(options: AcquireOptions = NO_OPTIONS): Promise<AcquireResult> {
    if (this.disposed) return Promise.resolve(REMOVED);
    if (options.signal?.aborted) return Promise.resolve(ABORTED);
    const now = this.clock.now();
    const holdable = this.windows.holdable(options.proxied === true, options.agentId);
    // No barging: a free slot goes to a newcomer only when nobody is queued for it.
    if (this.queue.size === 0 && this.hasFreeSlot(now) && !(holdable && this.windows.holding(now))) {
      const lease = this.admit(options.agentId, options.ttlMs, now, now);
      this.notify(true);
      return Promise.resolve({ ok: true, lease });
    }
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && timeoutMs <= 0) return Promise.resolve(TIMED_OUT);
    const deadline = timeoutMs === undefined ? undefined : now + timeoutMs;
    const pausedUntil = this.windows.pausedUntil(now);
    if (deadline !== undefined && pausedUntil !== undefined && deadline < pausedUntil) {
      return Promise.resolve(TIMED_OUT);
    }
    return this.wait(options, now, deadline, holdable);
  }

  // Apart from acquire() so that acquire has no closure: V8 would otherwise put its locals in
  // a heap context allocated on every call, immediate admissions included.
  private wait(options: AcquireOptions, now: number, deadline: number | undefined, holdable: boolean): Promise<AcquireResult> {
    return new Promise((resolve) => {
      const waiter = new Waiter(this, ++this.arrivals, options, now, deadline, resolve);
      waiter.holdable = holdable;
      this.enqueue(waiter);
    });
  }

  private enqueue(waiter: Waiter): void {
    if (this.queue.size === 0) this.queuedSince = waiter.enqueuedAt;
    this.queue.join(waiter);
    this.watchdog.arm();
    // A waiter a hold lets through may pass the held ones at once.
    this.notify(!waiter.holdable && this.queue.size > 1 && this.drive());
  }

  /** A queued waiter gives up (timeout, abort): it leaves the queue and can never be admitted. */
  abandon(waiter: Waiter, result: AcquireResult): void {
    if (!this.queue.leave(waiter)) return;
    if (this.queue.size === 0) this.watchdog.stop();
    waiter.resolve(result);
    this.notify(false);
  }

  private hasFreeSlot(now: number): boolean {
    return this.held.size + this.recycling.count < this.limit.value && !this.windows.closed(now);
  }

  private admit(agentId: string | undefined, ttlMs: number | undefined, enqueuedAt: number, now: number): Lease {
    const lease: Lease = { leaseId: this.deps.newId(), providerId: this.providerId, admittedAt: now, enqueuedAt };
    if (agentId !== undefined) lease.agentId = agentId;
    if (ttlMs !== undefined) lease.expiresAt = now + ttlMs;
    this.held.hold(lease, ttlMs, now);
    this.windows.admitted(lease.leaseId, agentId, now);
    this.waits.record(now, now - enqueuedAt);
    this.lastAdmissionAt = now;
    return lease;
  }

  /** Admits queued waiters, oldest first, while slots, the pause and the usage gate allow. */
  private drive(): boolean {
    // A release with nobody waiting (every release below the limit) needs no clock read.
    if (this.disposed || this.queue.size === 0) return false;
    const now = this.clock.now();
    let admitted = false;
    for (let head = this.nextUp(now); head && this.hasFreeSlot(now); head = this.nextUp(now)) {
      if (this.gate && !this.gate.admitOne()) break;
      this.queue.leave(head);
      head.resolve({ ok: true, lease: this.admit(head.agentId, head.ttlMs, head.enqueuedAt, now) });
      admitted = true;
    }
    if (admitted && this.queue.size === 0) this.watchdog.stop();
    return admitted;
  }

  /** The oldest waiter, or while a hold holds the oldest, the oldest one it lets through. */
  private nextUp(now: number): Waiter | undefined {
    const head = this.queue.first();
    return head?.holdable && this.windows.holding(now) ? this.queue.firstExempt() : head;
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
    this.windows.released(leaseId, outcome);
    if (outcome === "success") this.rateLimits.succeeded();
    else if (outcome === "rate_limited") this.rateLimited(age, retryAfterMs);
    if (this.cooldownMs > 0) this.recycling.start(this.cooldownMs);
    this.drive();
    this.notify(true);
    return true;
  }

  returnUndelivered(leaseId: string): boolean {
    if (!this.held.take(leaseId)) return false;
    this.drive();
    this.notify(true);
    return true;
  }

  rateLimitedOn(leaseId: string, retryAfterMs?: number): boolean {
    const age = this.held.ageOf(leaseId);
    if (!age) return false;
    this.rateLimited(age, retryAfterMs);
    this.notify(false);
    return true;
  }

  /** A 429 while a used-up window pauses the provider is the window's refusal: no backoff, no reduction. */
  private rateLimited(age: LeaseAge, retryAfterMs: number | undefined): void {
    if (this.windows.blocks()) this.event("rate_limited", say.rateLimitedMessage(this.providerId, retryAfterMs));
    else this.rateLimits.rateLimited(age, retryAfterMs);
  }

  noteUpstreamLimits(reading: UpstreamLimits, fromSuccess: boolean): void {
    this.upstreamLimits = reading;
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
      const cooldownLeft = expiresAt + this.cooldownMs - this.clock.now();
      if (cooldownLeft > 0) this.recycling.start(cooldownLeft);
    }
    this.notify(true);
  }

  heldLeases(): PersistedLease[] {
    return this.held.persisted();
  }

  leases(): ReturnType<ProviderPool["leases"]> {
    const held = this.held.persisted().map(({ ttlMs: _ttl, ...view }) => view);
    return { held, waiting: this.queue.views() };
  }

  // ── settings ───────────────────────────────────────────────────────────────

  setLimit(limit: number): void {
    this.limit.setByHand(limit, this.clock.now());
    this.deps.onConfigChange?.(this.config());
    this.notify(this.drive());
  }

  setCooldown(cooldownMs: number): void {
    this.cooldownMs = valid(checkCooldownMs(cooldownMs));
    this.deps.onConfigChange?.(this.config());
    this.notify(false);
  }

  resume(): void {
    const wasPaused = this.windows.lift() || this.pause.active(this.clock.now());
    this.pause.lift();
    this.rateLimits.lifted();
    if (wasPaused) this.event("resumed", say.resumedMessage(this.providerId));
    this.notify(this.drive());
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

  setUsageProbe(usageProbe: PoolDeps["usageProbe"]): void {
    this.gate?.dispose();
    this.gate = this.disposed ? undefined : this.newGate(usageProbe);
    this.notify(this.drive());
  }

  private newGate(usageProbe: PoolDeps["usageProbe"]): UsageGate | undefined {
    if (!usageProbe) return undefined;
    return new UsageGate(usageProbe.probe, usageProbe.pollMs, {
      clock: this.clock,
      limit: () => this.limit.value,
      drive: () => {
        if (this.drive()) this.notify(true);
      },
      changed: () => this.notify(false),
    });
  }

  // ── reading ────────────────────────────────────────────────────────────────

  config(): PoolConfig {
    return this.limit.config(this.cooldownMs);
  }

  /** O(1) in the number of waiters: everything shown is a kept count. */
  status(): ConcurrencyStatusEntry {
    const now = this.clock.now();
    const pause = this.windows.pauseFields(now);
    const windows = this.windows.views();
    const waits = this.waits.percentiles(now);
    const reading = this.usageReading();
    return {
      providerId: this.providerId,
      limit: this.limit.value,
      active: this.held.size,
      queued: this.queue.size,
      paused: pause.pausedUntil !== undefined,
      ...pause,
      cooldownMs: this.cooldownMs,
      ...this.limit.statusFields(this.providerId),
      recycling: this.recycling.count,
      ...(waits ? { waitP50Ms: waits.p50, waitP95Ms: waits.p95 } : {}),
      ...(reading ? { usageGate: reading } : {}),
      ...(this.upstreamLimits ? { upstreamLimits: this.upstreamLimits } : {}),
      ...this.windows.waitFields(this.queue.size > 0, this.queue.size > this.queue.exempt, now),
      ...(windows ? { windows } : {}),
    };
  }

  usageReading(): UsageGateReading | undefined {
    const reading = this.gate?.reading();
    return reading && { ...reading };
  }

  private recover(quietForMs: number): void {
    const message = say.watchdogMessage(this.providerId, this.queue.size, quietForMs);
    const { lastAdmissionAt, queuedSince } = this;
    this.deps.log?.(message, { ...this.status(), now: this.clock.now(), lastAdmissionAt, queuedSince });
    this.event("watchdog", message);
    this.notify(this.drive());
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const waiter of this.queue) {
      this.queue.leave(waiter);
      waiter.resolve(REMOVED);
    }
    this.held.clear();
    this.recycling.dispose();
    this.pause.lift();
    this.windows.dispose();
    this.watchdog.stop();
    this.gate?.dispose();
  }
}
