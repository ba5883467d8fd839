// Which agents are around and what each is doing now (SPEC §9): every ask for a slot notes its
// agent; the pools say who holds and who waits. Pure: times come in as arguments. Bounded: an
// agent not seen for an hour is forgotten, and at most MAX_AGENTS are remembered at once.
import type { AgentEntry, AgentState } from "../../shared/agents";
import { identify, type AgentIdentity } from "./agent-identity";
import type { UsageCount } from "./usage-count";

export const SEEN_FOR_MS = 3_600_000;
const MAX_AGENTS = 20_000;

/** A provider's pool as its leases view shows it. */
export interface PoolView {
  providerId: string;
  held: { leaseId: string; agentId?: string; admittedAt: number }[];
  waiting: { waiterId: string; agentId?: string; position: number; since: number; resuming?: true }[];
}

interface Seen {
  identity: AgentIdentity;
  providerId: string;
  since: number;
  lastSeenAt: number;
  waiting: number;
}

const entryKey = (key: string, providerId: string) => `${providerId}\u0000${key}`;

export class AgentTracker {
  private readonly seen = new Map<string, Seen>();
  /** The entry last in `seen`, which need not move again. */
  private newest: string | undefined;
  private readonly leases = new Map<string, string>();

  /** An agent asks for a slot; returns the handle the other calls take. */
  asking(identity: AgentIdentity, providerId: string, now: number): string {
    const id = entryKey(identity.key, providerId);
    const known = this.seen.get(id);
    if (known) {
      // Re-inserted last, so the map stays in order of last sight (an agent at work asks again and again).
      if (id !== this.newest) {
        this.seen.delete(id);
        this.seen.set(id, known);
        this.newest = id;
      }
      known.lastSeenAt = now;
      known.identity = identity;
    } else {
      this.seen.set(id, { identity, providerId, since: now, lastSeenAt: now, waiting: 0 });
      this.newest = id;
      if (this.seen.size > MAX_AGENTS) this.forget(now, true);
    }
    return id;
  }

  waitStarted(id: string): void {
    const seen = this.seen.get(id);
    if (seen) seen.waiting++;
  }

  waitEnded(id: string, now: number): void {
    const seen = this.seen.get(id);
    if (!seen) return;
    seen.waiting = Math.max(0, seen.waiting - 1);
    seen.lastSeenAt = now;
  }

  admitted(id: string, leaseId: string): void {
    if (this.seen.has(id)) this.leases.set(leaseId, id);
  }

  ended(leaseId: string, now: number): void {
    const id = this.leases.get(leaseId);
    if (id === undefined) return;
    this.leases.delete(leaseId);
    const seen = this.seen.get(id);
    if (seen) seen.lastSeenAt = now;
  }

  /** The name a request riding on a held lease takes: the lease's agent. */
  leaseAgent(leaseId: string): string | undefined {
    const id = this.leases.get(leaseId);
    return id === undefined ? undefined : this.seen.get(id)?.identity.name;
  }

  /** A ride found the process behind the lease's agent: the agent is known by it from now on. */
  rode(leaseId: string, identity: AgentIdentity, now: number): void {
    const id = this.leases.get(leaseId);
    const seen = id === undefined ? undefined : this.seen.get(id);
    if (!seen || id === undefined) return;
    const next = entryKey(identity.key, seen.providerId);
    seen.lastSeenAt = now;
    if (next === id) return;
    seen.identity = identity;
    this.seen.delete(id);
    this.seen.delete(next); // an entry already under the new key moves to the end with it
    this.seen.set(next, seen);
    this.newest = next;
    for (const [lease, holder] of this.leases) if (holder === id) this.leases.set(lease, next);
  }

  /** Running and waiting first, then by last sight; `usage` gives each agent's requests and tokens. */
  entries(now: number, pools: PoolView[], usage: (providerId: string, label: string) => UsageCount | undefined): AgentEntry[] {
    return this.view(now, pools, usage, Infinity).agents;
  }

  /**
   * The first `max` of entries() and how many were left out: with 8,000 recent agents one
   * snapshot was 2.2 MB and each push cost the host 40 % of a core (issue 32).
   */
  view(now: number, pools: PoolView[], usage: (providerId: string, label: string) => UsageCount | undefined, max: number): { agents: AgentEntry[]; omitted: number } {
    this.forget(now, false);
    const state = new Map<string, { state: AgentState; position?: number; resuming?: true }>();
    const held = new Set<string>();
    const waitingByName = new Map<string, string[]>();
    for (const [id, seen] of this.seen) {
      if (seen.waiting === 0) continue;
      const name = entryKey(seen.identity.name, seen.providerId);
      const ids = waitingByName.get(name);
      if (ids) ids.push(id);
      else waitingByName.set(name, [id]);
    }
    for (const pool of pools) {
      for (const lease of pool.held) {
        held.add(lease.leaseId);
        const id = this.leases.get(lease.leaseId) ?? this.restored(pool.providerId, lease.agentId, lease.admittedAt);
        state.set(id, { state: "running" });
      }
      // Proxy waiters carry their agent's name in the pool: the first one of that name gives the position.
      for (const waiter of pool.waiting) {
        const ids = waiter.agentId === undefined ? undefined : waitingByName.get(entryKey(waiter.agentId, pool.providerId));
        // Each waiter takes one agent of its name; those already running are passed over.
        let id = ids?.pop();
        while (id !== undefined && state.has(id)) id = ids?.pop();
        if (id !== undefined) state.set(id, { state: "waiting", position: waiter.position, ...(waiter.resuming ? { resuming: true as const } : {}) });
      }
    }
    for (const leaseId of this.leases.keys()) if (!held.has(leaseId)) this.leases.delete(leaseId);
    const rank = { running: 0, waiting: 1, idle: 2 } as const;
    const ranked = [...this.seen].map(([id, seen]) => {
      const current = state.get(id) ?? (seen.waiting > 0 ? { state: "waiting" as const } : { state: "idle" as const });
      return { seen, current, lastSeenAt: current.state === "idle" ? seen.lastSeenAt : now };
    });
    ranked.sort(
      (a, b) =>
        rank[a.current.state] - rank[b.current.state] ||
        b.lastSeenAt - a.lastSeenAt ||
        (a.seen.identity.key < b.seen.identity.key ? -1 : a.seen.identity.key > b.seen.identity.key ? 1 : 0),
    );
    const shown = ranked.length > max ? ranked.slice(0, max) : ranked;
    const agents = shown.map(({ seen, current, lastSeenAt }): AgentEntry => {
      const used = usage(seen.providerId, seen.identity.label);
      const { key, label, pid, command, cwd, userAgent } = seen.identity;
      return {
        key,
        label,
        ...(pid === undefined ? {} : { pid }),
        ...(command === undefined ? {} : { command }),
        ...(cwd === undefined ? {} : { cwd }),
        ...(userAgent === undefined ? {} : { userAgent }),
        providerId: seen.providerId,
        ...current,
        since: seen.since,
        lastSeenAt,
        requests: used?.requests ?? 0,
        tokens: used ? { ...used.tokens } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        costUsd: used?.costUsd ?? 0,
        unpriced: used?.unpriced ?? 0,
      };
    });
    return { agents, omitted: ranked.length - shown.length };
  }

  /** A lease held since before a restart: its agent is the lease's own name. */
  private restored(providerId: string, agentId: string | undefined, admittedAt: number): string {
    const identity = identify({ ...(agentId === undefined ? {} : { leaseAgent: agentId }) });
    const id = entryKey(identity.key, providerId);
    if (!this.seen.has(id)) {
      this.seen.set(id, { identity, providerId, since: admittedAt, lastSeenAt: admittedAt, waiting: 0 });
      this.newest = id;
    }
    return id;
  }

  private forget(now: number, overCap: boolean): void {
    const held = new Set(this.leases.values());
    for (const [id, seen] of this.seen) {
      const stale = seen.lastSeenAt < now - SEEN_FOR_MS;
      if (!stale && !(overCap && this.seen.size > MAX_AGENTS)) break; // oldest first: the rest are newer
      if (held.has(id) || seen.waiting > 0) continue;
      this.seen.delete(id);
    }
  }
}
