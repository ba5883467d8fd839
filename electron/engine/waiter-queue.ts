// The FIFO of waiters. Intrusive and doubly linked: a waiter carries its own links, so
// joining, taking the head and leaving from the middle (timeout, abort) are all O(1) and
// allocate nothing beyond the waiter itself. Deadlines share one timer (waiter-deadlines.ts).
import type { WaitingView } from "../../shared/types";
import type { Clock } from "./clock";
import type { AcquireOptions, AcquireResult } from "./pool-types";
import { type Timed, UNTRACKED, WaiterDeadlines } from "./waiter-deadlines";

// Giving up carries no per-call data, so every waiter that gives up shares one frozen answer.
const failed = (kind: "timeout" | "aborted" | "removed"): AcquireResult =>
  Object.freeze({ ok: false, failure: Object.freeze({ kind }) });
export const TIMED_OUT = failed("timeout");
export const ABORTED = failed("aborted");
export const REMOVED = failed("removed");

export interface WaiterOwner {
  /** The waiter gives up; a no-op once it has left the queue. */
  abandon(waiter: Waiter, result: AcquireResult): void;
}

export class Waiter implements Timed {
  prev: Waiter | undefined = undefined;
  next: Waiter | undefined = undefined;
  /** True exactly while linked into the queue; once false it can never be admitted. */
  queued = false;
  // Kept by WaiterDeadlines while the waiter has a deadline and is queued.
  slot = UNTRACKED;
  runPrev: Waiter | undefined = undefined;
  runNext: Waiter | undefined = undefined;
  readonly waiterId: string | undefined;
  readonly agentId: string | undefined;
  readonly ttlMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  /** Held back by a window hold (SPEC §8): a new lease; false for a proxy request of an agent at work. */
  holdable = true;
  /** A `headroom run --resume` waiting out a window (SPEC §8): goes before every other waiter, FIFO among its kind. */
  readonly resuming: boolean;
  /** SPEC §8 `waitForResetMs`, for a proxy request (near-reset.ts). */
  readonly nearResetMs: number | undefined;

  constructor(
    private readonly owner: WaiterOwner,
    /** Arrival number, for a default waiter id. */
    readonly seq: number,
    options: AcquireOptions,
    readonly enqueuedAt: number,
    readonly deadline: number | undefined,
    readonly resolve: (result: AcquireResult) => void,
  ) {
    this.waiterId = options.waiterId;
    this.agentId = options.agentId;
    this.ttlMs = options.ttlMs;
    this.signal = options.signal;
    this.resuming = options.resume === true;
    this.nearResetMs = options.nearResetMs;
  }

  /** The waiter is its own abort listener, so a signal costs no closure. */
  handleEvent(): void {
    this.owner.abandon(this, ABORTED);
  }
}

export class WaiterQueue {
  private head: Waiter | undefined;
  private tail: Waiter | undefined;
  private count = 0;
  private exemptCount = 0;
  /** Resuming waiters stand together at the front; this is the last of them (SPEC §1's second exception to FIFO). */
  private lastResuming: Waiter | undefined;
  private resumingCount = 0;
  private readonly deadlines: WaiterDeadlines<Waiter>;

  constructor(
    clock: Clock,
    private readonly owner: WaiterOwner,
  ) {
    this.deadlines = new WaiterDeadlines(clock, (waiter) => owner.abandon(waiter, TIMED_OUT));
  }

  get size(): number {
    return this.count;
  }

  first(): Waiter | undefined {
    return this.head;
  }

  /** Queued resuming waiters (all at the front). */
  get resuming(): number {
    return this.resumingCount;
  }

  /** Queued waiters a window hold does not hold back. */
  get exempt(): number {
    return this.exemptCount;
  }

  /** The oldest waiter a hold does not hold back: it may pass held ones (SPEC §1 invariants). */
  firstExempt(): Waiter | undefined {
    if (this.exemptCount === 0) return undefined;
    for (const waiter of this) if (!waiter.holdable) return waiter;
    return undefined;
  }

  /** Queues a waiter at the back, with its deadline and abort listener. */
  join(waiter: Waiter): void {
    this.push(waiter);
    if (waiter.deadline !== undefined) this.deadlines.add(waiter, waiter.enqueuedAt);
    waiter.signal?.addEventListener("abort", waiter);
  }

  /** Takes a waiter out wherever it stands, dropping its deadline and listener; false if it had left. */
  leave(waiter: Waiter): boolean {
    if (!this.remove(waiter)) return false;
    this.deadlines.remove(waiter);
    waiter.signal?.removeEventListener("abort", waiter);
    return true;
  }

  /** Answers with a timeout everyone whose deadline falls before `until` (a pause they cannot outwait). */
  timeOutBefore(until: number): void {
    // Collected first: each answer notifies the owner, whose listeners must not disturb the walk.
    const late: Waiter[] = [];
    for (const waiter of this) if (waiter.deadline !== undefined && waiter.deadline < until) late.push(waiter);
    for (const waiter of late) this.owner.abandon(waiter, TIMED_OUT);
  }

  /** Positions count from 1 (next in line); O(n), only on request. */
  views(): WaitingView[] {
    const views: WaitingView[] = [];
    for (const waiter of this) {
      views.push({
        waiterId: waiter.waiterId ?? `waiter-${waiter.seq}`,
        ...(waiter.agentId === undefined ? {} : { agentId: waiter.agentId }),
        position: views.length + 1,
        since: waiter.enqueuedAt,
        ...(waiter.resuming ? { resuming: true as const } : {}),
      });
    }
    return views;
  }

  private push(waiter: Waiter): void {
    waiter.queued = true;
    this.count++;
    if (!waiter.holdable) this.exemptCount++;
    if (waiter.resuming) this.pushResuming(waiter);
    else this.pushBack(waiter);
  }

  private pushBack(waiter: Waiter): void {
    waiter.prev = this.tail;
    waiter.next = undefined;
    if (this.tail) this.tail.next = waiter;
    else this.head = waiter;
    this.tail = waiter;
  }

  /** Behind the resuming waiters already queued, before everyone else: still O(1). */
  private pushResuming(waiter: Waiter): void {
    const after = this.lastResuming;
    this.lastResuming = waiter;
    this.resumingCount++;
    const before = after ? after.next : this.head;
    if (!before) return this.pushBack(waiter);
    waiter.prev = after;
    waiter.next = before;
    before.prev = waiter;
    if (after) after.next = waiter;
    else this.head = waiter;
  }

  private remove(waiter: Waiter): boolean {
    if (!waiter.queued) return false;
    if (waiter.resuming) {
      this.resumingCount--;
      // Resuming waiters are contiguous at the front, so the one before the last is one too.
      if (this.lastResuming === waiter) this.lastResuming = waiter.prev;
    }
    if (waiter.prev) waiter.prev.next = waiter.next;
    else this.head = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else this.tail = waiter.prev;
    waiter.prev = undefined;
    waiter.next = undefined;
    waiter.queued = false;
    this.count--;
    if (!waiter.holdable) this.exemptCount--;
    return true;
  }

  *[Symbol.iterator](): IterableIterator<Waiter> {
    // Read `next` before yielding so the caller may remove the waiter it was handed.
    for (let waiter = this.head; waiter; ) {
      const next = waiter.next;
      yield waiter;
      waiter = next;
    }
  }
}
