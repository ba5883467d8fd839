// API waiters of a provider its daily budget pauses (SPEC §9: "API waiters wait", as for a
// used-up window in SPEC §8). They wait here, before the pool, in arrival order, and go on to
// the pool's queue together and in that order when the pause ends (midnight, a raised budget,
// `Resume now`); a waiter whose deadline falls before the pause's end gets its timeout at once.
// Kept apart from the pool so one rule covers local and shared pools alike (a shared provider's
// queue lives in Redis; its budget is summed there, then judged by each host).
import type { AcquireResult } from "../engine/pool-types";
import { ABORTED, TIMED_OUT } from "../engine/waiter-queue";

interface Held {
  go: (result: AcquireResult | undefined) => void;
}

export class BudgetHold {
  private readonly held = new Map<string, Set<Held>>();

  /** `pausedUntil`: the end of the provider's budget pause, undefined while none pauses it. */
  constructor(private readonly pausedUntil: (providerId: string) => number | undefined) {}

  /**
   * Resolves undefined once the provider's budget lets admissions through (at once while it
   * does), or the failure to answer: a deadline before the pause's end, or the client left.
   */
  wait(providerId: string, deadline: number | undefined, signal?: AbortSignal): Promise<AcquireResult | undefined> | undefined {
    const until = this.pausedUntil(providerId);
    if (until === undefined) return undefined;
    if (signal?.aborted) return Promise.resolve(ABORTED);
    if (deadline !== undefined && deadline < until) return Promise.resolve(TIMED_OUT);
    let waiters = this.held.get(providerId);
    if (!waiters) this.held.set(providerId, (waiters = new Set()));
    const set = waiters;
    return new Promise((resolve) => {
      const onAbort = () => held.go(ABORTED);
      const held: Held = {
        go: (result) => {
          set.delete(held);
          if (set.size === 0 && this.held.get(providerId) === set) this.held.delete(providerId);
          signal?.removeEventListener("abort", onAbort);
          resolve(result);
        },
      };
      set.add(held);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** How many wait for the provider's budget (the status's `queued` counts them). */
  count(providerId: string): number {
    return this.held.get(providerId)?.size ?? 0;
  }

  /** A budget changed: the waiters of every provider it no longer pauses go on, oldest first. */
  wake(): void {
    for (const [providerId, waiters] of [...this.held]) {
      if (this.pausedUntil(providerId) !== undefined) continue;
      for (const held of [...waiters]) held.go(undefined);
    }
  }

  /** The host is closing: every waiter goes on to the pool, which answers as it closes. */
  close(): void {
    for (const waiters of [...this.held.values()]) for (const held of [...waiters]) held.go(undefined);
  }
}
