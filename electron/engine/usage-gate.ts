// The optional upstream usage gate (SPEC §1): before a queued waiter goes in, ask the
// provider how many sessions it already counts. A busy answer keeps the queue waiting
// until the next poll; a failed or slow answer never blocks (fail open).
import type { UsageGateReading } from "../../shared/types";
import type { Clock, TimerHandle } from "./clock";
import type { GateProbe, UsageProbe } from "./pool-types";

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
  cancel: () => void;
}

export class UsageGate {
  private gate: GateProbe | undefined;
  private poll: Poll | undefined;
  private busyTimer: TimerHandle | undefined;
  /** Admissions the reading just taken still allows; only lives during one drive pass. */
  private allowance = 0;
  private pollCount = 0;
  private last: UsageGateReading | undefined;

  constructor(private readonly host: UsageGateHost) {}

  /** A new gate (or none): a poll under way and the busy interval are abandoned, the old reading with them. */
  set(gate: GateProbe | undefined): void {
    this.dispose();
    this.gate = gate;
    this.allowance = 0;
    this.last = undefined;
  }

  /**
   * May the head of the queue go in now? Always, without a gate. When it may not, a poll is
   * in flight or the busy interval is running, and the host is driven again once that settles.
   */
  admitOne(): boolean {
    if (!this.gate) return true;
    if (this.allowance > 0) {
      this.allowance--;
      return true;
    }
    if (!this.holdingBack()) this.startPoll(this.gate);
    return false;
  }

  holdingBack(): boolean {
    return this.poll !== undefined || this.busyTimer !== undefined;
  }

  reading(): UsageGateReading | undefined {
    return this.last;
  }

  dispose(): void {
    this.poll?.cancel();
    this.poll = undefined;
    if (this.busyTimer !== undefined) this.host.clock.clearTimeout(this.busyTimer);
    this.busyTimer = undefined;
  }

  private startPoll(gate: GateProbe): void {
    const id = ++this.pollCount;
    const cancel = pollUsage(gate.probe, this.host.clock, (reading, sessions) => this.settle(id, gate.pollMs, reading, sessions));
    this.poll = { id, cancel };
  }

  private settle(id: number, pollMs: number, reading: UsageGateReading, counted: number | undefined): void {
    if (this.poll?.id !== id) return;
    this.poll = undefined;
    this.last = reading;
    this.host.changed();

    const allowance = admissionsAllowed(counted, this.host.limit());
    if (allowance === 0) {
      this.busyTimer = this.host.clock.setTimeout(() => {
        this.busyTimer = undefined;
        this.host.drive();
      }, pollMs);
      return;
    }
    this.allowance = allowance;
    this.host.drive();
    this.allowance = 0;
  }
}

/**
 * How many queued waiters a reading lets in now: 0 holds the queue for the poll interval. Each
 * admission adds one upstream session, so a fresh reading lets in at most limit - sessions; a
 * failed poll holds nobody back. Later admissions poll again. The shared pool's script
 * (electron/shared-pool/gate-script.ts) judges by the same rule.
 */
function admissionsAllowed(sessions: number | undefined, limit: number): number {
  if (sessions === undefined) return Number.POSITIVE_INFINITY;
  return sessions >= limit ? 0 : limit - sessions;
}

/**
 * Asks the gate once. `settle` hears the reading exactly once: the number of sessions, or why
 * there is none (a failure, a non-number, or no answer within GATE_ANSWER_MS, when the probe
 * is aborted). The returned function abandons the poll without a reading.
 */
export function pollUsage(
  probe: UsageProbe,
  clock: Clock,
  settle: (reading: UsageGateReading, sessions: number | undefined) => void,
): () => void {
  const controller = new AbortController();
  let open = true;
  const finish = (sessions: number | undefined, error?: string) => {
    if (!open) return; // a late answer to a poll already given up on
    open = false;
    clock.clearTimeout(timer);
    if (error !== undefined) controller.abort();
    const checkedAt = clock.now();
    const counted = error === undefined && typeof sessions === "number" && Number.isFinite(sessions) ? sessions : undefined;
    settle(
      counted !== undefined
        ? { ok: true, concurrentSessions: counted, checkedAt }
        : { ok: false, error: error ?? "the usage gate answered without a number of concurrent sessions", checkedAt },
      counted,
    );
  };
  const timer = clock.setTimeout(() => finish(undefined, `the usage gate did not answer within ${GATE_ANSWER_MS / 1000} s`), GATE_ANSWER_MS);
  let answer: Promise<number>;
  try {
    answer = Promise.resolve(probe(controller.signal));
  } catch (error) {
    answer = Promise.reject(error);
  }
  answer.then(
    (sessions) => finish(sessions),
    (error: unknown) => finish(undefined, error instanceof Error ? error.message : String(error)),
  );
  return () => {
    if (!open) return;
    open = false;
    clock.clearTimeout(timer);
    controller.abort();
  };
}
