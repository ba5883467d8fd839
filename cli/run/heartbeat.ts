// Keeps a lease alive while its command runs: API leases expire a TTL after the last sign of
// life (SPEC §3), so a killed agent cannot hold a slot forever, but a long one must not lose it.
import { ApiError, type ApiClient } from "../../shared/api-client";
import type { Admission } from "../../shared/types";

export interface Heartbeat {
  stop(): void;
}

export function startHeartbeat(client: ApiClient, admission: Admission, warn: (message: string) => void): Heartbeat {
  if (admission.expiresAt === undefined) return { stop() {} };
  const ttlMs = admission.expiresAt - admission.admittedAt;
  // A third of the TTL leaves two more tries before expiry when one is lost or late.
  const everyMs = Math.max(10, Math.floor(ttlMs / 3));
  let inFlight = false;
  let unreachable = false;

  const beat = async () => {
    if (inFlight) return;
    inFlight = true;
    try {
      await client.heartbeat(admission.leaseId);
      if (unreachable) warn(`headroom: reaching Headroom again; the slot on ${admission.providerId} is still held.`);
      unreachable = false;
    } catch (error) {
      if (error instanceof ApiError && error.code === "unknown_lease") {
        warn(
          `headroom: the lease on ${admission.providerId} expired or was released by hand; the command keeps running without a slot.`,
        );
        clearInterval(timer);
      } else if (!unreachable) {
        unreachable = true;
        warn(`headroom: cannot heartbeat the slot on ${admission.providerId} (${(error as Error).message}); retrying.`);
      }
    } finally {
      inFlight = false;
    }
  };
  const timer = setInterval(beat, everyMs);
  return { stop: () => clearInterval(timer) };
}
