// The hold near the end of a plan window for a shared provider (SPEC §8): new leases asked of
// this host wait here, before they queue in Redis, while a window every host reads is at or
// above this host's `holdNewAtPercent`. Agents at work pass: a proxy request of an agent this
// host admitted in the last 10 minutes, as the local pool's window-rules.ts lets them. Held
// waiters keep their order among themselves; waiters that are not held pass them by queueing
// in Redis at once.
import type { Clock, TimerHandle } from "../engine/clock";
import type { AcquireOptions } from "../engine/pool-types";

const RECENT_AGENT_MS = 10 * 60_000;
const MAX_RECENT_AGENTS = 1_000;

type Passage = "go" | "timeout" | "aborted" | "removed";

interface Held {
  done(passage: Passage): void;
}

export class WindowHold {
  private readonly held = new Set<Held>();
  private readonly recent = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    /** Why new leases wait now, or undefined when the hold does not hold. */
    private readonly reason: (now: number) => string | undefined,
  ) {}

  /** How many wait here. */
  get size(): number {
    return this.held.size;
  }

  /** While some wait here: why. */
  waitReason(): string | undefined {
    return this.held.size > 0 ? this.reason(this.clock.now()) : undefined;
  }

  /** Resolves `go` when the request may queue in Redis: at once unless the hold holds it. */
  pass(options: AcquireOptions): Promise<Passage> {
    if (!this.holdable(options) || this.reason(this.clock.now()) === undefined) return Promise.resolve("go");
    if (options.timeoutMs !== undefined && options.timeoutMs <= 0) return Promise.resolve("timeout");
    if (options.signal?.aborted) return Promise.resolve("aborted");
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      const onAbort = () => entry.done("aborted");
      const entry: Held = {
        done: (passage) => {
          if (!this.held.delete(entry)) return;
          if (timer !== undefined) this.clock.clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          resolve(passage);
        },
      };
      this.held.add(entry);
      if (options.timeoutMs !== undefined) timer = this.clock.setTimeout(() => entry.done("timeout"), options.timeoutMs);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The readings or the setting changed: once the hold lets go, everyone held goes on, oldest first. */
  check(): void {
    if (this.held.size === 0 || this.reason(this.clock.now()) !== undefined) return;
    for (const entry of [...this.held]) entry.done("go");
  }

  /** An agent was admitted through this host: at work for the next 10 minutes. */
  admitted(agentId: string | undefined): void {
    if (agentId === undefined) return;
    this.recent.delete(agentId);
    this.recent.set(agentId, this.clock.now());
    if (this.recent.size > MAX_RECENT_AGENTS) this.recent.delete(this.recent.keys().next().value as string);
  }

  dispose(): void {
    for (const entry of [...this.held]) entry.done("removed");
  }

  private holdable({ proxied, agentId, resume }: AcquireOptions): boolean {
    // A resuming run already had its turn (SPEC §8): the hold never holds it back.
    if (resume === true) return false;
    if (proxied !== true || agentId === undefined) return true;
    const at = this.recent.get(agentId);
    return at === undefined || this.clock.now() - at > RECENT_AGENT_MS;
  }
}
