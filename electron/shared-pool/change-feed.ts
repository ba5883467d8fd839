// Changes to a shared provider by any host (channel `<prefix>:<provider>:changed`, published by
// the pool script): every host hears of them at once, so its view of the status stays truthful
// without asking. The script publishes at most once per CHANGE_GAP_MS, and a host tells of a
// message at once and again CHANGE_WINDOW_MS later: that second look covers the changes the gap
// kept quiet, with room for the hosts' clocks to differ from Redis's by CHANGE_WINDOW_MS − CHANGE_GAP_MS.
import type { Clock, TimerHandle } from "../engine/clock";

/** The script's least time between two messages, on Redis's clock. */
export const CHANGE_GAP_MS = 25;
/** When a host looks again after a message; messages meanwhile are covered by that look. */
const CHANGE_WINDOW_MS = 50;

export class ChangeFeed {
  private window: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onChange: () => void,
  ) {}

  /** A message on the channel (its text names the host whose operation changed the state). */
  heard(): void {
    if (this.window !== undefined) return;
    this.onChange();
    this.window = this.clock.setTimeout(() => {
      this.window = undefined;
      this.onChange();
    }, CHANGE_WINDOW_MS);
  }

  stop(): void {
    if (this.window !== undefined) this.clock.clearTimeout(this.window);
    this.window = undefined;
  }
}
