// Other hosts' changes to a shared provider (channel `<prefix>:<provider>:changed`, published by
// the pool script with the changing host's name): this host hears of them at once, so its view
// of the status stays truthful without asking. A burst is told once at its start and once more
// at the end of a short window, not once per message.
import type { Clock, TimerHandle } from "../engine/clock";

export const CHANGE_WINDOW_MS = 50;

export class ChangeFeed {
  private window: TimerHandle | undefined;
  private pending = false;

  constructor(
    private readonly clock: Clock,
    private readonly host: string,
    private readonly onChange: () => void,
  ) {}

  /** A message on the channel: the name of the host whose operation changed the state. */
  heard(from: string): void {
    // This host's own operations tell it already, with their replies.
    if (from === this.host) return;
    if (this.window !== undefined) {
      this.pending = true;
      return;
    }
    this.onChange();
    this.window = this.clock.setTimeout(() => this.close(), CHANGE_WINDOW_MS);
  }

  stop(): void {
    if (this.window !== undefined) this.clock.clearTimeout(this.window);
    this.window = undefined;
    this.pending = false;
  }

  private close(): void {
    this.window = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.heard("");
  }
}
