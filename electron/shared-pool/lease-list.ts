// Every host's held leases and waiters on a shared provider (SPEC §3 leases, §7 `host`), from
// the script's `leases` reply (pool-script-extras.ts), in the pool's clock (Redis's).
import type { HeldLeaseView, WaitingView } from "../../shared/types";

export interface SharedLeaseList {
  held: HeldLeaseView[];
  waiting: WaitingView[];
}

/** The reply: a count, five fields per held lease, then four per waiter, oldest first. */
export function readLeaseList(reply: (string | number)[]): SharedLeaseList {
  const count = Number(reply[0]);
  const held: HeldLeaseView[] = [];
  let at = 1;
  for (let i = 0; i < count; i++, at += 5) {
    const [leaseId, admittedAt, expiresAt, host, agentId] = reply.slice(at, at + 5);
    const lease: HeldLeaseView = { leaseId: String(leaseId), admittedAt: Number(admittedAt) };
    if (agentId !== "") lease.agentId = String(agentId);
    if (Number(expiresAt) >= 0) lease.expiresAt = Number(expiresAt);
    lease.host = String(host);
    held.push(lease);
  }
  // Redis keeps held leases in a hash: ordered here by admission, as the local pool lists them.
  held.sort((a, b) => a.admittedAt - b.admittedAt);
  const waiting: WaitingView[] = [];
  for (; at < reply.length; at += 4) {
    const [waiterId, since, host, agentId] = reply.slice(at, at + 4);
    waiting.push({
      waiterId: String(waiterId),
      ...(agentId === "" ? {} : { agentId: String(agentId) }),
      position: waiting.length + 1,
      since: Number(since),
      host: String(host),
    });
  }
  return { held, waiting };
}
