// Held API leases on disk (SPEC §1, in leases.json: electron/settings/lease-file.ts), so a host
// restart neither forgets them nor silently exceeds the limit. An admission or a release is
// answered only once a write covering it has completed (group commit: everything changed before
// the write shares it). Heartbeats and expiries are written lazily.
import type { Clock, TimerHandle } from "../engine/clock";
import type { StoredLease } from "../settings/settings-schema";
import type { SettingsStore } from "../settings/settings-store";
import { notSaved } from "./service-error";

const LAZY_WRITE_MS = 50;

interface Waiter {
  resolve(): void;
  reject(problem: string): void;
}

export class LeaseJournal {
  private lazyTimer: TimerHandle | undefined;
  private commitScheduled = false;
  private waiters: Waiter[] = [];
  private stopped = false;

  constructor(
    private readonly store: SettingsStore,
    private readonly clock: Clock,
    /** The leases to keep: only those that expire (proxy leases end with their connection). */
    private readonly collect: () => StoredLease[],
  ) {}

  /** Something changed that may wait (a heartbeat, an expiry): written within LAZY_WRITE_MS. */
  changed(): void {
    if (this.lazyTimer !== undefined || this.stopped) return;
    this.lazyTimer = this.clock.setTimeout(() => this.flush(), LAZY_WRITE_MS);
  }

  /**
   * Resolves once everything changed so far is on disk; when the write failed, rejects with a
   * 503 naming the folder, the OS error and `consequence`. Callers in the same turn of the
   * event loop share one write.
   */
  saved(consequence: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject: (problem) => reject(notSaved(this.store.leases.path, problem, consequence)) });
      if (this.commitScheduled) return;
      this.commitScheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Writes now (on shutdown) and stops further writes. */
  close(): void {
    this.flush();
    this.stopped = true;
  }

  private flush(): void {
    if (this.lazyTimer !== undefined) this.clock.clearTimeout(this.lazyTimer);
    this.lazyTimer = undefined;
    this.commitScheduled = false;
    const waiters = this.waiters;
    this.waiters = [];
    const problem = this.store.leases.write(this.collect());
    for (const waiter of waiters) {
      if (problem === undefined) waiter.resolve();
      else waiter.reject(problem);
    }
  }
}
