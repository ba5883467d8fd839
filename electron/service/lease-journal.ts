// Held API leases on disk (SPEC §1), so a host restart neither forgets them nor silently
// exceeds the limit. Leases change on every admission, so writes are coalesced.
import type { Clock, TimerHandle } from "../engine/clock";
import type { StoredLease } from "../settings/settings-schema";
import type { SettingsStore } from "../settings/settings-store";

const WRITE_EVERY_MS = 50;

export class LeaseJournal {
  private timer: TimerHandle | undefined;
  private written: string;
  private stopped = false;

  constructor(
    private readonly store: SettingsStore,
    private readonly clock: Clock,
    /** The leases to keep: only those that expire (proxy leases end with their connection). */
    private readonly collect: () => StoredLease[],
  ) {
    this.written = JSON.stringify(store.read().leases);
  }

  /** Something changed: write within WRITE_EVERY_MS, once for any number of changes. */
  changed(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = this.clock.setTimeout(() => this.flush(), WRITE_EVERY_MS);
  }

  /** Writes now (on shutdown) and stops further writes. */
  close(): void {
    this.flush();
    this.stopped = true;
  }

  private flush(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const leases = this.collect();
    // Proxy traffic churns only leases that are never kept: an unchanged list is not worth a write.
    const text = JSON.stringify(leases);
    if (text === this.written) return;
    this.written = text;
    this.store.update((draft) => {
      draft.leases = leases;
    });
  }
}
