// Every host's held leases and waiters on a shared provider (SPEC §3 leases, §7 `host`), from
// the script's `leases` answer (lua/lease-ops.ts), in the pool's clock (Redis's).
import type { HeldLeaseView, WaitingView } from "../../shared/types";
import { list, type Results } from "./pool-protocol";

export interface SharedLeaseList {
  held: HeldLeaseView[];
  waiting: WaitingView[];
}

export function readLeaseList(answer: Results["leases"]): SharedLeaseList {
  const held: HeldLeaseView[] = list(answer.held).map(({ leaseId, admittedAt, expiresAt, host, agentId }) => ({
    leaseId,
    admittedAt,
    ...(agentId === undefined ? {} : { agentId }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    host,
  }));
  // Redis keeps held leases in a hash: ordered here by admission, as the local pool lists them.
  held.sort((a, b) => a.admittedAt - b.admittedAt);
  const waiting: WaitingView[] = list(answer.waiting).map(({ waiterId, enqueuedAt, host, agentId, resuming }, i) => ({
    waiterId,
    ...(agentId === undefined ? {} : { agentId }),
    position: i + 1,
    since: enqueuedAt,
    host,
    ...(resuming === true ? { resuming } : {}),
  }));
  return { held, waiting };
}
