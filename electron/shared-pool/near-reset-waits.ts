// SPEC §8 "Waiting through a near reset" on a shared provider: a proxied request of its own that
// meets a used-up window whose reset is near waits in Redis's queue, and this host holds it to
// the same bounds as a local provider's (electron/engine/near-reset.ts, which it reuses): when
// the probe at the reset is refused again the same test applies to the new reset, and 60 s past
// the latest reset without an admission, while the window still holds admission back, it gives
// up. Both are read from Redis's window as this host last read it (a new read re-tests them).
import type { Clock } from "../engine/clock";
import { NearResetWaiters, type NearResetWaiter } from "../engine/near-reset";
import type { AcquireOptions, AcquireResult } from "../engine/pool-types";
import { TIMED_OUT } from "../engine/waiter-queue";

/** What the waits read of Redis's window pause (shared-windows.ts `RedisWindow`), on this host's clock. */
interface WindowPauseRead {
  /** While paused: its end. */
  until?: number;
  probing: boolean;
}

interface Waiting extends NearResetWaiter {
  readonly controller: AbortController;
  timedOut: boolean;
}

export class SharedNearResetWaits {
  private readonly waiters: NearResetWaiters<Waiting>;
  /** How many wait through a reset now, and the latest reset they were tested against. */
  private count = 0;
  private latest: number | undefined;

  constructor(
    private readonly clock: Clock,
    /** Redis's window pause as last read, on this host's clock. */
    private readonly window: () => WindowPauseRead | undefined,
  ) {
    this.waiters = new NearResetWaiters<Waiting>(clock, {
      blocks: () => {
        const now = window();
        return now !== undefined && (now.probing || (now.until !== undefined && now.until > clock.now()));
      },
      giveUp: (waiting) => {
        waiting.timedOut = true;
        this.waiters.left(waiting);
        waiting.controller.abort();
      },
    });
  }

  /**
   * Runs an admission; one that waits through a near reset is answered with a timeout (as the
   * local pool does) when the bounds give up on it.
   */
  async around(options: AcquireOptions, admit: (options: AcquireOptions) => Promise<AcquireResult>): Promise<AcquireResult> {
    const until = options.nearResetMs === undefined ? undefined : this.window()?.until;
    if (until === undefined || until <= this.clock.now()) return admit(options);
    const controller = new AbortController();
    const waiting: Waiting = { nearResetMs: options.nearResetMs, controller, timedOut: false };
    // The caller's own signal still ends the wait (combined by hand: AbortSignal.any needs Node 20.3).
    const own = options.signal;
    const passOn = () => controller.abort();
    if (own?.aborted) controller.abort();
    else own?.addEventListener("abort", passOn, { once: true });
    this.latest = this.count === 0 ? until : Math.max(this.latest ?? until, until);
    this.count++;
    this.waiters.join(waiting, until);
    try {
      const result = await admit({ ...options, signal: controller.signal });
      return waiting.timedOut && !result.ok ? TIMED_OUT : result;
    } finally {
      own?.removeEventListener("abort", passOn);
      this.count--;
      this.waiters.left(waiting);
    }
  }

  /** Redis's window was read again: a pause that moved later (its probe refused) tests the waiters anew. */
  read(): void {
    const until = this.window()?.until;
    if (this.count === 0 || until === undefined || until <= (this.latest ?? Number.NEGATIVE_INFINITY)) return;
    this.latest = until;
    this.waiters.paused(until);
  }

  dispose(): void {
    this.waiters.dispose();
  }
}
