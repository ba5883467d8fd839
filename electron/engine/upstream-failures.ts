// SPEC §4 `upstreamFailures`: per provider, the proxied requests that found no working upstream
// (none set, not reachable, a loop) over the last 10 minutes. Agents retry a broken upstream
// as fast as they can, so failures are counted by the second: a provider holds at most 600
// counts however hard it is hammered. A success clears nothing (failures age out); a new upstream does.
import type { UpstreamFailures } from "../../shared/types";
import type { Clock, TimerHandle } from "./clock";

export const UPSTREAM_FAILURE_WINDOW_MS = 10 * 60_000;

/** The failures of one second; they age out together, when the newest of them does. */
interface Second {
  second: number;
  newestAt: number;
  count: number;
}

class ProviderFailures {
  readonly seconds: Second[] = [];
  total = 0;
  lastError = "";
  lastAt = 0;

  note(at: number, error: string): void {
    const second = Math.floor(at / 1000);
    const newest = this.seconds.at(-1);
    if (newest?.second === second) {
      newest.count += 1;
      newest.newestAt = Math.max(newest.newestAt, at);
    } else {
      this.seconds.push({ second, newestAt: at, count: 1 });
    }
    this.total += 1;
    this.lastError = error;
    this.lastAt = at;
  }

  /** Drops the seconds 10 minutes old; true when any went. */
  prune(now: number): boolean {
    let dropped = 0;
    while (dropped < this.seconds.length && now - this.seconds[dropped]!.newestAt >= UPSTREAM_FAILURE_WINDOW_MS) {
      this.total -= this.seconds[dropped]!.count;
      dropped += 1;
    }
    this.seconds.splice(0, dropped);
    return dropped > 0;
  }

  /** When the oldest second ages out; undefined when none is left. */
  nextExpiry(): number | undefined {
    const oldest = this.seconds[0];
    return oldest === undefined ? undefined : oldest.newestAt + UPSTREAM_FAILURE_WINDOW_MS;
  }
}

export class UpstreamFailureBook {
  private readonly byProvider = new Map<string, ProviderFailures>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    /** A count changed: a failure was noted or aged out (the status shows it). */
    private readonly onChange: () => void,
  ) {}

  note(providerId: string, error: string): void {
    let failures = this.byProvider.get(providerId);
    if (!failures) {
      failures = new ProviderFailures();
      this.byProvider.set(providerId, failures);
    }
    failures.note(this.clock.now(), error);
    this.schedule();
    this.onChange();
  }

  /** The status entry's field; undefined when there was none in the last 10 minutes. */
  of(providerId: string): UpstreamFailures | undefined {
    const failures = this.byProvider.get(providerId);
    if (!failures) return undefined;
    failures.prune(this.clock.now());
    if (failures.total === 0) return undefined;
    return { count: failures.total, lastError: failures.lastError, lastAt: failures.lastAt };
  }

  forget(providerId: string): void {
    this.byProvider.delete(providerId);
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.byProvider.clear();
  }

  /**
   * Failures age out without a request to notice: a timer at the earliest expiry pushes the
   * change. Expiries only move later (a new failure ages out after every older one), so a
   * running timer is never late; when it comes early it finds nothing to drop and goes again.
   */
  private schedule(): void {
    if (this.timer !== undefined) return;
    let earliest: number | undefined;
    for (const failures of this.byProvider.values()) {
      const at = failures.nextExpiry();
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    if (earliest === undefined) return;
    this.timer = this.clock.setTimeout(() => this.expire(), Math.max(0, earliest - this.clock.now()));
  }

  private expire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    let changed = false;
    for (const [providerId, failures] of this.byProvider) {
      if (failures.prune(now)) changed = true;
      if (failures.total === 0) this.byProvider.delete(providerId);
    }
    this.schedule();
    if (changed) this.onChange();
  }
}
