// A queue that waits with free slots and nothing that could free more is a bug: the
// watchdog notices after a quiet period, and the pool logs it and drives the queue again.
// Its timer runs only while someone waits: the pool starts it when the queue fills and
// stops it when the queue empties, so an idle pool holds none.
import type { Clock, TimerHandle } from "./clock";

export interface WatchdogHost {
  waiting(): boolean;
  /** Last admission, or when the queue last became non-empty, whichever is later. */
  quietSince(): number;
  /** Nothing held or recycling, not paused, not held back by the usage gate. */
  idle(now: number): boolean;
  recover(quietForMs: number): void;
}

export class QueueWatchdog {
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly periodMs: number,
    private readonly host: WatchdogHost,
  ) {}

  /** Called whenever someone joins the queue; a no-op while the timer runs. */
  arm(delay = this.periodMs): void {
    if (this.timer === undefined) this.timer = this.clock.setTimeout(() => this.tick(), delay);
  }

  /** The queue emptied (or the pool is gone). */
  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.host.waiting()) return;
    const now = this.clock.now();
    const quietFor = now - this.host.quietSince();
    if (quietFor >= this.periodMs && this.host.idle(now)) this.host.recover(quietFor);
    if (this.host.waiting()) this.arm(quietFor < this.periodMs ? this.periodMs - quietFor : this.periodMs);
  }
}
