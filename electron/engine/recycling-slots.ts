// Released slots inside their cooldown (SPEC §1): each still counts against the limit, with its
// own timer, so a cooldown changed later does not move slots already recycling.
import type { Clock, TimerHandle } from "./clock";

export class RecyclingSlots {
  private readonly timers = new Set<TimerHandle>();

  constructor(
    private readonly clock: Clock,
    /** How long a released slot recycles; checked by the pool. */
    public cooldownMs: number,
    /** A slot finished recycling and is free. */
    private readonly onFree: () => void,
  ) {}

  get count(): number {
    return this.timers.size;
  }

  /** A slot was released: it is free again once its cooldown has passed. */
  released(): void {
    if (this.cooldownMs > 0) this.start(this.cooldownMs);
  }

  /** A slot whose lease expired at `expiredAt` (restored too late): what is left of its cooldown. */
  expiredAt(expiredAt: number): void {
    const cooldownLeft = expiredAt + this.cooldownMs - this.clock.now();
    if (cooldownLeft > 0) this.start(cooldownLeft);
  }

  dispose(): void {
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private start(ms: number): void {
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.onFree();
    }, ms);
    this.timers.add(timer);
  }
}
