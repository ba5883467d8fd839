// The 429 pause: admission stops until `until`, which later 429s may only push further out.
import type { Clock, TimerHandle } from "./clock";

export class PauseWindow {
  private end: number | undefined;
  private timer: TimerHandle | undefined;
  /** Why admissions are paused, in words (SPEC §1 `pauseReason`); set by whoever paused. */
  reason = "";

  constructor(
    private readonly clock: Clock,
    /** The pause ran out on its own. */
    private readonly onEnd: () => void,
  ) {}

  /** Epoch ms the pause ends, only while paused. */
  until(now: number): number | undefined {
    return this.end !== undefined && now < this.end ? this.end : undefined;
  }

  active(now: number): boolean {
    return this.end !== undefined && now < this.end;
  }

  /**
   * Still holding the queue back: at the very instant the pause ends, its timer (which drives
   * the queue) may not have run yet, so the watchdog must not take that instant for a stall.
   */
  holding(now: number): boolean {
    return this.end !== undefined && now <= this.end;
  }

  /** Pauses until `until` unless that is not later than now and any current end; true when it did. */
  extendTo(until: number, now: number): boolean {
    if (until <= now || (this.end !== undefined && until <= this.end)) return false;
    this.lift();
    this.end = until;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.end = undefined;
      this.onEnd();
    }, until - now);
    return true;
  }

  lift(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.end = undefined;
  }
}
