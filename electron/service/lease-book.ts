// Which provider holds which API lease, and which ids were released recently: SPEC §3 answers
// `{ released: false }` for a lease released or expired within the hour, and 404 after that.
const REMEMBER_MS = 60 * 60 * 1000;

export class LeaseBook {
  private readonly live = new Map<string, string>();
  /** Insertion-ordered, so the oldest are pruned from the front in O(1) amortised time. */
  private readonly ended = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  hold(leaseId: string, providerId: string): void {
    this.live.set(leaseId, providerId);
  }

  providerOf(leaseId: string): string | undefined {
    return this.live.get(leaseId);
  }

  end(leaseId: string): void {
    this.live.delete(leaseId);
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
