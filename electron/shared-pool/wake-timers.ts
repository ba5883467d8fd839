// When a host asks Redis again without being asked to: each instant the shared state changes
// by itself (a cooldown or a pause ends), the instant another host would expire while this
// one has waiters, a fallback poll while it has waiters (a lost pub/sub message delays but
// never strands a waiter), and its 2 s heartbeat. Every one of them just drives the queue.
import type { Clock, TimerHandle } from "../engine/clock";

export class WakeTimers {
  private readonly instants = new Map<number, TimerHandle>();
  private expiry: { at: number; timer: TimerHandle } | undefined;
  private poll: TimerHandle | undefined;
  private heartbeat: TimerHandle | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly drive: () => void,
    private readonly pollMs: number,
  ) {}

  /** One timer per instant, however many replies name it. */
  at(times: number[]): void {
    if (this.stopped) return;
    const now = this.clock.now();
    for (const at of times) {
      if (this.instants.has(at)) continue;
      const timer = this.clock.setTimeout(() => {
        this.instants.delete(at);
        this.drive();
      }, at - now);
      this.instants.set(at, timer);
    }
  }

  /** `at` -1: no other host to wait for; 0: the reply did not say, keep the current one. */
  hostExpiry(at: number, hasWaiters: boolean): void {
    if (this.stopped || at === 0 || this.expiry?.at === at) return;
    if (this.expiry) this.clock.clearTimeout(this.expiry.timer);
    this.expiry = undefined;
    if (at < 0 || !hasWaiters) return;
    const timer = this.clock.setTimeout(() => {
      this.expiry = undefined;
      this.drive();
    }, at - this.clock.now());
    this.expiry = { at, timer };
  }

  /** Polls every pollMs until stopPolling(); a no-op while already polling or when pollMs is 0. */
  startPolling(): void {
    if (this.stopped || this.poll !== undefined || this.pollMs <= 0) return;
    const tick = () => {
      this.drive();
      this.poll = this.clock.setTimeout(tick, this.pollMs);
    };
    this.poll = this.clock.setTimeout(tick, this.pollMs);
  }

  stopPolling(): void {
    if (this.poll !== undefined) this.clock.clearTimeout(this.poll);
    this.poll = undefined;
  }

  startHeartbeat(everyMs: number): void {
    if (this.stopped || everyMs <= 0) return;
    const beat = () => {
      this.drive();
      this.heartbeat = this.clock.setTimeout(beat, everyMs);
    };
    this.heartbeat = this.clock.setTimeout(beat, everyMs);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of [...this.instants.values(), this.expiry?.timer, this.poll, this.heartbeat]) {
      if (timer !== undefined) this.clock.clearTimeout(timer);
    }
    this.instants.clear();
    this.expiry = this.poll = this.heartbeat = undefined;
  }
}
