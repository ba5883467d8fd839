// This host's waiters on a shared provider (SPEC §1, §7): their promises, deadlines and abort
// signals. Whether a waiter was admitted before it gave up is Redis's to say; this keeps the
// waiters that gave up until Redis confirms they left, and those answered during an outage,
// whose admission (if Redis made one first) goes back unused when it arrives.
import type { Clock, TimerHandle } from "../engine/clock";
import type { AcquireOptions, AcquireResult } from "../engine/pool-types";
import { ABORTED, REMOVED, TIMED_OUT } from "../engine/waiter-queue";
import type { ArgsOf } from "./pool-protocol";

/** What acquire asks Redis, after the waiter's id: kept to enqueue it again in a Redis that lost it. */
type Asked = Omit<ArgsOf<"acquire">, "waiterId">;

interface Waiting {
  resolve: (result: AcquireResult) => void;
  agentId: string | undefined;
  deadline: TimerHandle | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  asked: Asked;
  /** The ttl it asked for (-1: none). */
  ttl: number;
}

export interface SharedWaitersDeps {
  host: string;
  /** The random part of waiter ids (see SharedPoolDeps.newId); without it, a counter. */
  newId?: () => string;
  clock: Clock;
  connected: () => boolean;
  /** Sends the acquire; resolves once its reply is handled. */
  enqueue(waiterId: string, asked: Asked): Promise<unknown>;
  /** Asks Redis to take the waiter out of the queue; true when it left (was not admitted first). */
  leave(waiterId: string): Promise<boolean>;
  /** The fallback poll runs while any waiter is queued. */
  polling(on: boolean): void;
  background(work: Promise<unknown>): void;
}

export class SharedWaiters {
  private readonly waiting = new Map<string, Waiting>();
  /** Waiters answered while Redis was unreachable, whose leaving Redis has not yet confirmed. */
  private readonly gaveUp = new Set<string>();
  /** Waiters that gave up while Redis was reachable, until it confirms they left. */
  private readonly leaving = new Map<string, AcquireResult>();
  private arrivals = 0;

  constructor(private readonly deps: SharedWaitersDeps) {}

  get size(): number {
    return this.waiting.size;
  }

  acquire(options: AcquireOptions): Promise<AcquireResult> {
    const now = this.deps.clock.now();
    const waiterId = `${this.deps.host}.${this.deps.newId ? this.deps.newId() : ++this.arrivals}`;
    const { timeoutMs, signal } = options;
    return new Promise((resolve) => {
      const onAbort = () => this.giveUp(waiterId, ABORTED);
      const deadline = timeoutMs === undefined ? -1 : now + Math.max(0, timeoutMs);
      const zero = timeoutMs !== undefined && timeoutMs <= 0 ? 1 : 0;
      const ttl = options.ttlMs ?? -1;
      const asked: Asked = { deadline, zero, ttl, agentId: options.agentId ?? "", resume: options.resume === true ? 1 : 0 };
      const entry: Waiting = { resolve, agentId: options.agentId, deadline: undefined, signal, onAbort, asked, ttl };
      this.waiting.set(waiterId, entry);
      // Armed now, on the caller's clock, so its deadline is judged in order with every other event.
      if (timeoutMs !== undefined && timeoutMs > 0) {
        entry.deadline = this.deps.clock.setTimeout(() => this.giveUp(waiterId, TIMED_OUT), timeoutMs);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      // Only a waiter that stayed queued needs the fallback poll.
      this.deps.background(
        this.deps.enqueue(waiterId, asked).then(() => {
          if (this.waiting.has(waiterId)) this.deps.polling(true);
        }),
      );
    });
  }

  /** A lease id of this host's from before a restart: a counted waiter id must not be it (random ids never meet one). */
  arrivedBefore(leaseId: string): void {
    if (this.deps.newId) return;
    const arrival = leaseId.startsWith(`${this.deps.host}.`) ? Number(leaseId.slice(this.deps.host.length + 1)) : NaN;
    if (arrival > this.arrivals) this.arrivals = arrival;
  }

  /**
   * A waiter gives up. Whether it was admitted first is Redis's to say: the script that
   * admitted it ran before this one, so its answer has reached this host already and this
   * is a no-op; otherwise it leaves the queue and can never be admitted. While Redis is
   * unreachable the waiter is answered at once (a deadline holds through an outage); if Redis
   * turns out to have admitted it first, that admission is handed back unused when it arrives.
   */
  private giveUp(waiterId: string, result: AcquireResult): void {
    if (!this.deps.connected()) this.answerUnconfirmed(waiterId, result);
    else this.leaving.set(waiterId, result);
    this.deps.background(
      this.deps.leave(waiterId).then((left) => {
        this.leaving.delete(waiterId);
        if (!left) return;
        this.gaveUp.delete(waiterId);
        this.answer(waiterId, result);
      }),
    );
  }

  /** The link dropped: those that gave up just before it wait for Redis's answer no longer. */
  disconnected(): void {
    for (const [waiterId, result] of this.leaving) this.answerUnconfirmed(waiterId, result);
  }

  /** Answers a waiter that gave up before Redis confirmed it left: its admission, if Redis made one first, goes back unused. */
  private answerUnconfirmed(waiterId: string, result: AcquireResult): void {
    if (!this.waiting.has(waiterId)) return;
    this.gaveUp.add(waiterId);
    this.answer(waiterId, result);
  }

  answer(waiterId: string, result: AcquireResult): void {
    const entry = this.waiting.get(waiterId);
    if (!entry) return;
    this.waiting.delete(waiterId);
    if (entry.deadline !== undefined) this.deps.clock.clearTimeout(entry.deadline);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    if (this.waiting.size === 0) this.deps.polling(false);
    entry.resolve(result);
  }

  timedOut(waiterId: string): void {
    this.gaveUp.delete(waiterId);
    this.answer(waiterId, TIMED_OUT);
  }

  /**
   * Redis admitted `leaseId`: the waiter still waiting for it, or undefined. `undelivered`: it
   * gave up during an outage, so nobody took the slot and it goes back unused; otherwise it
   * was answered already (a resent acquire tells its admission twice) and the lease stays held.
   */
  admitted(leaseId: string): { waiter: { agentId: string | undefined; ttl: number } } | { undelivered: boolean } {
    const waiter = this.waiting.get(leaseId);
    if (waiter) return { waiter };
    return { undelivered: this.gaveUp.delete(leaseId) };
  }

  /** Whether the waiter still waits (has not given up or been answered). */
  waits(waiterId: string): boolean {
    return this.waiting.has(waiterId);
  }

  /** Every waiter this host still waits for, and those whose admission would go back unused. */
  ids(): string[] {
    return [...this.waiting.keys(), ...this.gaveUp];
  }

  /** A Redis that lost its data holds no admission for a waiter that gave up during the outage. */
  forgetGaveUp(): void {
    this.gaveUp.clear();
  }

  /** What each waiter asked, to enqueue it again in a Redis that lost it. */
  asked(): [waiterId: string, asked: Asked][] {
    return [...this.waiting].map(([waiterId, { asked }]) => [waiterId, asked]);
  }

  /** The waiters still waiting, without those that gave up. */
  waitingIds(): string[] {
    return [...this.waiting.keys()];
  }

  /** Leaving the provider: these waiters are answered `removed`. */
  removed(waiterIds: string[]): void {
    for (const waiterId of waiterIds) this.answer(waiterId, REMOVED);
  }
}
