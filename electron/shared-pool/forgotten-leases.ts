// A host joining a shared provider (shared-provider-pool.ts) first frees what a previous run of
// it left held in Redis (SPEC §7).
import type { SharedPool } from "./shared-pool";

/**
 * Leases Redis holds for this host's name that this run does not: a previous run's proxy
 * leases, or releases it answered but never delivered (killed, or stopped while Redis was
 * away). Nobody holds them any more, so they are released as failures before anything is admitted.
 */
export async function releaseForgotten(shared: SharedPool, host: string, log: (message: string) => void): Promise<void> {
  const { held } = await shared.leaseList();
  const forgotten = held.filter((lease) => lease.host === host && !shared.isHeld(lease.leaseId));
  for (const { leaseId } of forgotten) await shared.release(leaseId, "failure");
  if (forgotten.length > 0) {
    log(`${forgotten.length} lease(s) a previous run of ${host} held on shared provider ${shared.providerId} were released`);
  }
}
