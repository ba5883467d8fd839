// Who goes in, and when (SPEC §1): a pool's FIFO of waiters and the rule that admits them. No
// barging (a free slot goes to a newcomer only when nobody is queued), oldest first, and while a
// window hold holds the oldest, the oldest one it lets through; a slot is free while held and
// recycling slots stay under the limit and no pause closes the provider, and the usage gate has
// the last word on each queued waiter. The watchdog notices a queue that waits for nothing.
// What a lease does once admitted (release, 429, expiry) is the pool's.
import type { AdaptiveLimit } from "./adaptive-limit";
import type { Clock } from "./clock";
import type { LeaseSlots } from "./lease-slots";
import type { AcquireOptions, AcquireResult, Lease } from "./pool-types";
import { NearResetWaiters } from "./near-reset";
import { QueueWatchdog } from "./queue-watchdog";
import type { RecyclingSlots } from "./recycling-slots";
import type { UsageGate } from "./usage-gate";
import { WaitStats } from "./wait-stats";
import { ABORTED, REMOVED, TIMED_OUT, Waiter, type WaiterOwner, WaiterQueue } from "./waiter-queue";
import type { WindowRules } from "./window-rules";

/** The instants the watchdog goes by, for its report. */
export interface QuietSince {
  lastAdmissionAt: number;
  queuedSince: number;
}

/** The pool's parts admission reads; it changes only the held leases (and tells the windows who went in). */
interface AdmissionParts {
  limit: AdaptiveLimit;
  held: LeaseSlots;
  recycling: RecyclingSlots;
  windows: WindowRules;
  gate: UsageGate;
}

export interface AdmissionDeps {
  providerId: string;
  clock: Clock;
  newId: () => string;
  parts: AdmissionParts;
  /** Something shown changed; `leasesChanged`: the held leases too. */
  notify(leasesChanged: boolean): void;
  watchdogMs: number;
  /** The watchdog found waiters queued with free slots and nothing to wait for. */
  stalled(quietForMs: number, since: QuietSince): void;
}

export class Admission implements WaiterOwner {
  readonly queue: WaiterQueue;
  readonly waits = new WaitStats();
  private readonly watchdog: QueueWatchdog;
  /** Proxy requests waiting through a near reset (SPEC §8 `waitForResetMs`). */
  private readonly nearReset: NearResetWaiters<Waiter>;
  private arrivals = 0;
  private lastAdmissionAt = Number.NEGATIVE_INFINITY;
  private queuedSince = 0;

  constructor(private readonly deps: AdmissionDeps) {
    const { clock } = deps;
    const { held, recycling, windows, gate } = deps.parts;
    this.queue = new WaiterQueue(clock, this);
    this.nearReset = new NearResetWaiters(clock, { blocks: () => windows.blocks(), giveUp: (waiter) => this.abandon(waiter, TIMED_OUT) });
    this.watchdog = new QueueWatchdog(clock, deps.watchdogMs, {
      waiting: () => this.queue.size > 0,
      quietSince: () => Math.max(this.lastAdmissionAt, this.queuedSince),
      idle: (now) => held.size + recycling.count === 0 && windows.idle(now) && !gate.holdingBack(),
      recover: (quietForMs) => deps.stalled(quietForMs, { lastAdmissionAt: this.lastAdmissionAt, queuedSince: this.queuedSince }),
    });
  }

  /**
   * The lease when a slot is free now for this newcomer (nobody queued, no hold holding it
   * back), else undefined: the proxy admits most requests this way, with no promise at all.
   */
  admitNow(options: AcquireOptions): Lease | undefined {
    if (options.signal?.aborted) return undefined;
    const now = this.deps.clock.now();
    // No barging: a free slot goes to a newcomer only when nobody is queued for it.
    if (this.queue.size !== 0 || !this.hasFreeSlot(now) || (this.holdable(options) && this.deps.parts.windows.holding(now))) return undefined;
    const lease = this.admit(options.agentId, options.ttlMs, now, now);
    this.deps.notify(true);
    return lease;
  }

  acquire(options: AcquireOptions): Promise<AcquireResult> {
    if (options.signal?.aborted) return Promise.resolve(ABORTED);
    const lease = this.admitNow(options);
    if (lease) return Promise.resolve({ ok: true, lease });
    const { windows } = this.deps.parts;
    const now = this.deps.clock.now();
    const holdable = this.holdable(options);
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && timeoutMs <= 0) return Promise.resolve(TIMED_OUT);
    const deadline = timeoutMs === undefined ? undefined : now + timeoutMs;
    const pausedUntil = windows.pausedUntil(now);
    if (deadline !== undefined && pausedUntil !== undefined && deadline < pausedUntil) {
      return Promise.resolve(TIMED_OUT);
    }
    return this.wait(options, now, deadline, holdable);
  }

  // A resuming run already had its turn: the hold never holds it back (SPEC §8).
  private holdable(options: AcquireOptions): boolean {
    return options.resume !== true && this.deps.parts.windows.holdable(options.proxied === true, options.agentId);
  }

  // Apart from acquire() so that acquire has no closure: V8 would otherwise put its locals in
  // a heap context allocated on every call, immediate admissions included.
  private wait(options: AcquireOptions, now: number, deadline: number | undefined, holdable: boolean): Promise<AcquireResult> {
    return new Promise((resolve) => {
      const waiter = new Waiter(this, ++this.arrivals, options, now, deadline, resolve);
      waiter.holdable = holdable;
      const resetAt = waiter.nearResetMs === undefined ? undefined : this.deps.parts.windows.windowPausedUntil(now);
      if (resetAt !== undefined) this.nearReset.join(waiter, resetAt);
      this.enqueue(waiter);
    });
  }

  private enqueue(waiter: Waiter): void {
    if (this.queue.size === 0) this.queuedSince = waiter.enqueuedAt;
    this.queue.join(waiter);
    this.watchdog.arm();
    // A waiter a hold lets through may pass the held ones at once.
    this.deps.notify(!waiter.holdable && this.queue.size > 1 && this.drive());
  }

  /** A queued waiter gives up (timeout, abort): it leaves the queue and can never be admitted. */
  abandon(waiter: Waiter, result: AcquireResult): void {
    if (!this.queue.leave(waiter)) return;
    if (waiter.nearResetMs !== undefined) this.nearReset.left(waiter);
    if (this.queue.size === 0) this.watchdog.stop();
    waiter.resolve(result);
    this.deps.notify(false);
  }

  /** Admits queued waiters, oldest first, while slots, the pause and the usage gate allow. */
  drive(): boolean {
    // A release with nobody waiting (every release below the limit) needs no clock read.
    if (this.queue.size === 0) return false;
    const now = this.deps.clock.now();
    let admitted = false;
    for (let head = this.nextUp(now); head && this.hasFreeSlot(now); head = this.nextUp(now)) {
      if (!this.deps.parts.gate.admitOne()) break;
      this.queue.leave(head);
      if (head.nearResetMs !== undefined) this.nearReset.left(head);
      head.resolve({ ok: true, lease: this.admit(head.agentId, head.ttlMs, head.enqueuedAt, now) });
      admitted = true;
    }
    if (admitted && this.queue.size === 0) this.watchdog.stop();
    return admitted;
  }

  /** A used-up window paused the provider until `until` (again, when its probe was refused). */
  windowPaused(until: number): void {
    this.nearReset.paused(until);
  }

  /** The pool is gone: every waiter is answered `removed`. */
  close(): void {
    this.nearReset.dispose();
    for (const waiter of this.queue) {
      this.queue.leave(waiter);
      waiter.resolve(REMOVED);
    }
    this.watchdog.stop();
  }

  private hasFreeSlot(now: number): boolean {
    const { held, recycling, limit, windows } = this.deps.parts;
    return held.size + recycling.count < limit.value && !windows.closed(now);
  }

  private admit(agentId: string | undefined, ttlMs: number | undefined, enqueuedAt: number, now: number): Lease {
    const lease: Lease = { leaseId: this.deps.newId(), providerId: this.deps.providerId, admittedAt: now, enqueuedAt };
    if (agentId !== undefined) lease.agentId = agentId;
    if (ttlMs !== undefined) lease.expiresAt = now + ttlMs;
    this.deps.parts.held.hold(lease, ttlMs, now);
    this.deps.parts.windows.admitted(lease.leaseId, agentId, now);
    this.waits.record(now, now - enqueuedAt);
    this.lastAdmissionAt = now;
    return lease;
  }

  /** The oldest waiter, or while a hold holds the oldest, the oldest one it lets through. */
  private nextUp(now: number): Waiter | undefined {
    const head = this.queue.first();
    return head?.holdable && this.deps.parts.windows.holding(now) ? this.queue.firstExempt() : head;
  }
}
