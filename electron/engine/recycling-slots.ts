// Released slots inside their cooldown: each still counts against the limit, with its own
// timer, so a cooldown changed later does not move slots already recycling.
import type { Clock, TimerHandle } from "./clock";

export class RecyclingSlots {
  private readonly timers = new Set<TimerHandle>();

  constructor(
    private readonly clock: Clock,
    /** A slot finished recycling and is free. */
    private readonly onFree: () => void,
  ) {}

  get count(): number {
    return this.timers.size;
  }

  start(ms: number): void {
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.onFree();
    }, ms);
    this.timers.add(timer);
  }

  dispose(): void {
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
  }
}
