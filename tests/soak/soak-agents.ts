// The soak's agents: each acquires a slot through the API, calls the fake provider while it
// holds it, and releases; now and then it crashes holding the slot (never releases). Only what
// the host acknowledged goes into the ledger.
import type { ApiClient } from "../../shared/api-client";
import { ApiError } from "../../shared/api-client";

export const PROVIDER = "soak";

export interface Ledger {
  /** Acknowledged admissions of live agents not yet released. */
  held: Set<string>;
  /** When each admission was acknowledged: a lease whose TTL ran out while the host was down is gone by design. */
  ackedAt: Map<string, number>;
  /** Acknowledged releases. */
  released: Set<string>;
  /** Releases sent and not answered yet: after a crash they may have landed either way. */
  releasing: Set<string>;
  /** Leases of agents that crashed holding them: they come back by expiry. */
  abandoned: Set<string>;
  admissions: number;
  crashes: number;
  hostDownErrors: number;
}

export const newLedger = (): Ledger => ({
  held: new Set(),
  ackedAt: new Map(),
  released: new Set(),
  releasing: new Set(),
  abandoned: new Set(),
  admissions: 0,
  crashes: 0,
  hostDownErrors: 0,
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hostDown = (error: unknown) => error instanceof ApiError && (error.code === "network" || error.status === 503);

/** Calls the upstream as an agent would, with its slot held. */
async function work(upstream: string): Promise<void> {
  const res = await fetch(`${upstream}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "soak", messages: [{ role: "user", content: "hi" }] }),
  });
  await res.arrayBuffer();
}

/** Retries through host restarts until the release is acknowledged (or the lease is gone). */
async function release(client: () => ApiClient, ledger: Ledger, leaseId: string, running: () => boolean): Promise<void> {
  for (;;) {
    ledger.releasing.add(leaseId);
    try {
      await client().release(leaseId, "success");
      ledger.releasing.delete(leaseId);
      ledger.held.delete(leaseId);
      ledger.released.add(leaseId);
      return;
    } catch (error) {
      ledger.releasing.delete(leaseId);
      if (!hostDown(error)) {
        // Expired while the host was down for longer than its TTL: the slot is back already.
        ledger.held.delete(leaseId);
        ledger.abandoned.add(leaseId);
        return;
      }
      ledger.hostDownErrors++;
      await pause(running() ? 100 : 50);
    }
  }
}

export async function runAgent(
  name: string,
  client: () => ApiClient,
  upstream: string,
  ledger: Ledger,
  running: () => boolean,
): Promise<void> {
  while (running()) {
    let leaseId: string;
    try {
      leaseId = (await client().acquire({ providerId: PROVIDER, agentId: name, timeoutMs: 5_000 })).leaseId;
    } catch (error) {
      if (hostDown(error)) ledger.hostDownErrors++;
      await pause(100); // host restarting, or a queue timeout: reconnect and try again
      continue;
    }
    ledger.admissions++;
    ledger.held.add(leaseId);
    ledger.ackedAt.set(leaseId, Date.now());
    if (Math.random() < 0.05) {
      // Killed mid-task: the slot stays held until the lease expires.
      ledger.crashes++;
      ledger.held.delete(leaseId);
      ledger.abandoned.add(leaseId);
      await pause(200);
      continue;
    }
    await work(upstream).catch(() => undefined);
    await release(client, ledger, leaseId, running);
  }
}
