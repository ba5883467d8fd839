// Queued waiters' deadlines behind ONE clock timer. A Node timer per waiter cost ~290 B
// each (100k waiters with a timeout went past the 50 MB budget) and a timer call on every
// admission. Callers mostly share one timeoutMs, so deadlines arrive in order: those join a
// sorted run (an intrusive list, O(1) to add and to remove from anywhere); the rare one
// earlier than the run's tail goes into a min-heap (O(log n)). The earliest deadline is the
// smaller of the two fronts.
//
// The timer is armed for the earliest deadline and left alone when that waiter leaves
// early (admitted, aborted): it then fires, finds nobody due and re-arms for the next
// deadline. So an admission makes no timer call, and the timer is cleared only when no
// deadline is left, which keeps an idle pool free of timers.
import type { Clock, TimerHandle } from "./clock";

/** Where a waiter's deadline is kept: nowhere, in the sorted run, or at a heap index (>= 0). */
export const UNTRACKED = -2;
const IN_RUN = -1;

export interface Timed {
  readonly deadline: number | undefined;
  /** Arrival order: equal deadlines fall due oldest first, as their own timers used to. */
  readonly seq: number;
  slot: number;
  runPrev: Timed | undefined;
  runNext: Timed | undefined;
}

const before = (a: Timed, b: Timed) =>
  (a.deadline as number) < (b.deadline as number) || (a.deadline === b.deadline && a.seq < b.seq);

export class WaiterDeadlines<W extends Timed> {
  private runHead: W | undefined;
  private runTail: W | undefined;
  private readonly heap: W[] = [];
  private count = 0;
  private timer: TimerHandle | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    /** The waiter's deadline passed; it is no longer tracked here. */
    private readonly onDue: (waiter: W) => void,
  ) {}

  /** Tracks a waiter with a deadline; `now` is the clock reading its deadline counts from. */
  add(waiter: W, now: number): void {
    if (this.runTail === undefined || !before(waiter, this.runTail)) this.append(waiter);
    else this.heapPush(waiter);
    this.count++;
    this.arm(waiter.deadline as number, now);
  }

  /** Stops tracking a waiter (it left the queue); a no-op for one not tracked. */
  remove(waiter: W): void {
    if (waiter.slot === UNTRACKED) return;
    if (waiter.slot === IN_RUN) this.unlink(waiter);
    else this.heapRemove(waiter.slot);
    waiter.slot = UNTRACKED;
    if (--this.count === 0) this.disarm();
  }

  private earliest(): W | undefined {
    const run = this.runHead;
    const heaped = this.heap[0];
    if (run === undefined) return heaped;
    return heaped !== undefined && before(heaped, run) ? heaped : run;
  }

  private arm(at: number, now: number): void {
    if (this.timer !== undefined && this.armedFor <= at) return;
    this.disarm();
    this.armedFor = at;
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, at - now));
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    const now = this.clock.now();
    // Everything up to the deadline the timer was set for is due, even if the wall clock
    // reads a hair earlier than the timer system did.
    const due = Math.max(now, this.armedFor);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    for (let waiter = this.earliest(); waiter && (waiter.deadline as number) <= due; waiter = this.earliest()) {
      this.remove(waiter);
      this.onDue(waiter);
    }
    const next = this.earliest();
    if (next) this.arm(next.deadline as number, now);
  }

  // ── the sorted run ───────────────────────────────────────────────────────────

  private append(waiter: W): void {
    waiter.slot = IN_RUN;
    waiter.runPrev = this.runTail;
    waiter.runNext = undefined;
    if (this.runTail) this.runTail.runNext = waiter;
    else this.runHead = waiter;
    this.runTail = waiter;
  }

  private unlink(waiter: W): void {
    if (waiter.runPrev) waiter.runPrev.runNext = waiter.runNext;
    else this.runHead = waiter.runNext as W | undefined;
    if (waiter.runNext) waiter.runNext.runPrev = waiter.runPrev;
    else this.runTail = waiter.runPrev as W | undefined;
    waiter.runPrev = undefined;
    waiter.runNext = undefined;
  }

  // ── the min-heap for out-of-order deadlines ────────────────────────────────

  private heapPush(waiter: W): void {
    this.heap.push(waiter);
    this.siftUp(this.heap.length - 1);
  }

  private heapRemove(index: number): void {
    const last = this.heap.pop() as W;
    if (index === this.heap.length) return;
    this.place(last, index);
    this.siftDown(index);
    this.siftUp(last.slot);
  }

  private place(waiter: W, index: number): void {
    this.heap[index] = waiter;
    waiter.slot = index;
  }

  private siftUp(index: number): void {
    const waiter = this.heap[index] as W;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.heap[parentIndex] as W;
      if (!before(waiter, parent)) break;
      this.place(parent, index);
      index = parentIndex;
    }
    this.place(waiter, index);
  }

  private siftDown(index: number): void {
    const waiter = this.heap[index] as W;
    const size = this.heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && before(this.heap[right] as W, this.heap[left] as W) ? right : left;
      if (!before(this.heap[child] as W, waiter)) break;
      this.place(this.heap[child] as W, index);
      index = child;
    }
    this.place(waiter, index);
  }
}
