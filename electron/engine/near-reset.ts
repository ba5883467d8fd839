// Proxy requests waiting through a near reset (SPEC §8 `waitForResetMs`): one that arrived while a
// used-up window paused the provider, with its reset at most waitForResetMs away, waits in the
// queue instead of being refused. When the probe at the reset is refused again, the same test
// applies to the new reset (one too far away is answered now); 60 s past the latest reset
// without an admission, while the window still holds admission back, it is answered like any
// refusal (a timeout, which the proxy words as the window's refusal). Few at a time, so a set
// and one timer for all of them: they share the latest reset.
import type { Clock, TimerHandle } from "./clock";
import { PROBE_MS } from "./window-pause";

export interface NearResetWaiter {
  /** The provider's waitForResetMs when the request arrived. */
  readonly nearResetMs: number | undefined;
}

export interface NearResetHooks<W> {
  /** The window still holds admission back (paused, or its probe out). */
  blocks(): boolean;
  /** Answer the waiter with a timeout; it leaves the queue (and calls `left`). */
  giveUp(waiter: W): void;
}

export class NearResetWaiters<W extends NearResetWaiter> {
  private readonly waiting = new Set<W>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly hooks: NearResetHooks<W>,
  ) {}

  /** A request that waits through the reset at `resetAt`. */
  join(waiter: W, resetAt: number): void {
    this.waiting.add(waiter);
    this.arm(resetAt);
  }

  /** It left the queue (admitted, gave up): a no-op for one that never waited for a reset. */
  left(waiter: W): void {
    if (this.waiting.delete(waiter) && this.waiting.size === 0) this.disarm();
  }

  /** A window pause began or moved to `until` (the probe was refused again): the test again. */
  paused(until: number): void {
    if (this.waiting.size === 0) return;
    const away = until - this.clock.now();
    for (const waiter of [...this.waiting]) if (away > (waiter.nearResetMs ?? 0)) this.hooks.giveUp(waiter);
    if (this.waiting.size > 0) this.arm(until);
  }

  private arm(resetAt: number): void {
    this.disarm();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (!this.hooks.blocks()) return; // the window reopened: they wait for a slot like anyone
      for (const waiter of [...this.waiting]) this.hooks.giveUp(waiter);
    }, Math.max(0, resetAt + PROBE_MS - this.clock.now()));
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disarm();
    this.waiting.clear();
  }
}
