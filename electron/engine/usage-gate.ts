// The optional upstream usage gate (SPEC §1): before a queued waiter goes in, ask the
// provider how many sessions it already counts. A busy answer keeps the queue waiting
// until the next poll; a failed or slow answer never blocks (fail open).
import type { UsageGateReading } from "../../shared/types";
import type { Clock, TimerHandle } from "./clock";
import type { UsageProbe } from "./pool-types";

/** A poll slower than this is abandoned and admission goes ahead without it. */
export const GATE_ANSWER_MS = 2_000;

export interface UsageGateHost {
  clock: Clock;
  limit(): number;
  /** A poll let waiters in (or the busy interval ended): admit what may go now. */
  drive(): void;
  /** The reading shown in the status changed. */
  changed(): void;
}

interface Poll {
  id: number;
  controller: AbortController;
  timer: TimerHandle;
}

export class UsageGate {
  private poll: Poll | undefined;
  private busyTimer: TimerHandle | undefined;
  /** Admissions the reading just taken still allows; only lives during one drive pass. */
  private allowance = 0;
  private pollCount = 0;
  private last: UsageGateReading | undefined;

  constructor(
    private readonly probe: UsageProbe,
    private readonly pollMs: number,
    private readonly host: UsageGateHost,
  ) {}

  /**
   * May the head of the queue go in now? When it may not, a poll is in flight or the
   * busy interval is running, and the host is driven again once that settles.
   */
  admitOne(): boolean {
    if (this.allowance > 0) {
      this.allowance--;
      return true;
    }
    if (!this.holdingBack()) this.startPoll();
    return false;
  }

  holdingBack(): boolean {
    return this.poll !== undefined || this.busyTimer !== undefined;
  }

  reading(): UsageGateReading | undefined {
    return this.last;
  }

  dispose(): void {
    if (this.poll) {
      this.host.clock.clearTimeout(this.poll.timer);
      this.poll.controller.abort();
      this.poll = undefined;
    }
    if (this.busyTimer !== undefined) this.host.clock.clearTimeout(this.busyTimer);
    this.busyTimer = undefined;
  }

  private startPoll(): void {
    const id = ++this.pollCount;
    const controller = new AbortController();
    const timer = this.host.clock.setTimeout(
      () => this.settle(id, undefined, `the usage gate did not answer within ${GATE_ANSWER_MS / 1000} s`),
      GATE_ANSWER_MS,
    );
    this.poll = { id, controller, timer };
    let answer: Promise<number>;
    try {
      answer = Promise.resolve(this.probe(controller.signal));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (sessions) => this.settle(id, sessions),
      (error: unknown) => this.settle(id, undefined, error instanceof Error ? error.message : String(error)),
    );
  }

  private settle(id: number, sessions: number | undefined, error?: string): void {
    const poll = this.poll;
    if (!poll || poll.id !== id) return; // a late answer to a poll already given up on
    this.poll = undefined;
    this.host.clock.clearTimeout(poll.timer);
    if (error !== undefined) poll.controller.abort();

    const checkedAt = this.host.clock.now();
    const counted =
      error === undefined && typeof sessions === "number" && Number.isFinite(sessions) ? sessions : undefined;
    this.last =
      counted !== undefined
        ? { ok: true, concurrentSessions: counted, checkedAt }
        : { ok: false, error: error ?? "the usage gate answered without a number of concurrent sessions", checkedAt };
    this.host.changed();

    const limit = this.host.limit();
    if (counted !== undefined && counted >= limit) {
      this.busyTimer = this.host.clock.setTimeout(() => {
        this.busyTimer = undefined;
        this.host.drive();
      }, this.pollMs);
      return;
    }
    // Each admission adds one upstream session, so a fresh reading lets in at most
    // limit - sessions waiters now; a failed poll holds nobody back. Later admissions poll again.
    this.allowance = counted === undefined ? Number.POSITIVE_INFINITY : limit - counted;
    this.host.drive();
    this.allowance = 0;
  }
}
