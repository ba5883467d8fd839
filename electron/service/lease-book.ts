// Which provider holds which API lease, and which ids were released recently: SPEC §3 answers
// `{ released: false }` for a lease released or expired within the hour, and 404 after that;
// and which held leases had a request refused by a window or a budget (SPEC §8 `stoppedBy`).
import type { StopKind } from "../../shared/types";

const REMEMBER_MS = 60 * 60 * 1000;

export class LeaseBook {
  private readonly live = new Map<string, string>();
  /** Insertion-ordered, so the oldest are pruned from the front in O(1) amortised time. */
  private readonly ended = new Map<string, number>();
  private readonly stopped = new Map<string, StopKind>();

  constructor(private readonly now: () => number) {}

  hold(leaseId: string, providerId: string): void {
    this.live.set(leaseId, providerId);
  }

  providerOf(leaseId: string): string | undefined {
    return this.live.get(leaseId);
  }

  /** A request riding a held lease was refused by a window or a budget; the newest kind wins. */
  stop(leaseId: string, kind: StopKind): void {
    if (this.live.has(leaseId)) this.stopped.set(leaseId, kind);
  }

  stoppedBy(leaseId: string): StopKind | undefined {
    return this.stopped.get(leaseId);
  }

  end(leaseId: string): void {
    this.live.delete(leaseId);
    this.stopped.delete(leaseId);
    this.ended.delete(leaseId);
    this.ended.set(leaseId, this.now());
    this.prune();
  }

  endedRecently(leaseId: string): boolean {
    this.prune();
    return this.ended.has(leaseId);
  }

  private prune(): void {
    const cutoff = this.now() - REMEMBER_MS;
    for (const [id, at] of this.ended) {
      if (at > cutoff) break;
      this.ended.delete(id);
    }
  }
}
