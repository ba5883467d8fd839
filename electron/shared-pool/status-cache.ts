// What a host shows of a shared provider without asking Redis (SPEC §7): the last status and
// lease list Redis gave, on the host's clock, read again whenever Redis tells of a change and
// every 2 s otherwise, with this host's own admissions and releases applied at once.
import type { LeasesView } from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { Lease } from "../engine/pool-types";
import { hostLeaseList, hostStatus } from "./redis-time";
import type { SharedStatusEntry } from "./shared-status";

export interface StatusCacheDeps {
  clock: Clock;
  refreshMs: number;
  /** Redis's clock minus the host's. */
  offsetMs: () => number;
  /** The status and lease list as Redis has them now (on its clock), or undefined when not joined. */
  read(): Promise<[SharedStatusEntry, LeasesView]> | undefined;
  /** A read was taken: `previous` is the status it replaced. */
  taken(previous: SharedStatusEntry | undefined): void;
  log(message: string): void;
}

export class StatusCache {
  last: SharedStatusEntry | undefined;
  list: LeasesView = { held: [], waiting: [] };
  /** Counts this host's own admissions and releases, so a read sent before one is not shown after it. */
  private ownChanges = 0;
  private skippedLast = false;
  private refreshing = false;
  private refreshAgain = false;
  private timer: ReturnType<Clock["setTimeout"]> | undefined;
  private stopped = false;
  /** Called once a read that began after they asked has been taken. */
  private nextRead: (() => void)[] = [];

  constructor(private readonly deps: StatusCacheDeps) {}

  /**
   * This host's own admission shows in the lease list and status at once, not only after the
   * next read from Redis: an agent that asks right after being admitted sees itself.
   */
  admittedHere(lease: Lease, host: string): void {
    const { leaseId, agentId, admittedAt, expiresAt } = lease;
    this.ownChanges++;
    if (this.list.held.some((held) => held.leaseId === leaseId)) return;
    const view = { leaseId, ...(agentId === undefined ? {} : { agentId }), admittedAt, ...(expiresAt === undefined ? {} : { expiresAt }), host };
    this.list = { held: [...this.list.held, view], waiting: this.list.waiting.filter((waiter) => waiter.waiterId !== leaseId) };
    if (this.last) this.last = { ...this.last, active: this.last.active + 1 };
  }

  /** This host let a lease go: it leaves the list and the count at once. */
  releasedHere(leaseId: string): void {
    this.ownChanges++;
    const listed = this.list.held.some((held) => held.leaseId === leaseId);
    this.list = { ...this.list, held: this.list.held.filter((held) => held.leaseId !== leaseId) };
    if (listed && this.last) this.last = { ...this.last, active: Math.max(0, this.last.active - 1) };
  }

  /** Resolves once a read sent after this call has been taken: what Redis had by then is shown. */
  afterNextRead(): Promise<void> {
    return new Promise((resolve) => {
      this.nextRead.push(resolve);
      this.refresh();
    });
  }

  /** Reads the status and lease list again; one read at a time, and one more if asked meanwhile. */
  refresh(): void {
    if (this.stopped) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    const reading = this.deps.read();
    if (!reading) return;
    this.refreshing = true;
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    const mark = this.ownChanges;
    const waiting = this.nextRead.splice(0);
    void reading
      .then(([status, list]) => {
        // Read before this host's own latest admission or release reached Redis: the next read shows
        // it. Only once in a row, so a host admitting without pause still gets a fresh status.
        if (mark !== this.ownChanges && !this.skippedLast) {
          this.skippedLast = true;
          this.refreshAgain = true;
          this.nextRead.push(...waiting); // not shown: the next read answers them
          return;
        }
        this.skippedLast = false;
        this.take(status, list);
        for (const resolve of waiting) resolve();
      })
      .catch((error: unknown) => {
        this.nextRead.push(...waiting);
        this.deps.log(String(error));
      })
      .finally(() => {
        this.refreshing = false;
        if (this.stopped) return;
        this.timer = this.deps.clock.setTimeout(() => this.refresh(), this.deps.refreshMs);
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.refresh();
        }
      });
  }

  stop(): void {
    this.stopped = true;
    for (const resolve of this.nextRead.splice(0)) resolve();
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
  }

  private take(status: SharedStatusEntry, list: LeasesView): void {
    const previous = this.last;
    const offsetMs = this.deps.offsetMs();
    this.last = hostStatus(status, offsetMs);
    this.list = hostLeaseList(list, offsetMs);
    this.deps.taken(previous);
  }
}
