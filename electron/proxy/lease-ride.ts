// A request riding on a lease its agent already holds (SPEC §6 "Lease-scoped requests"):
// `headroom run` holds one slot for the whole agent, and the agent's own requests through the
// proxy use that slot instead of queueing behind it (which deadlocks at limit 1).
import type { HeadroomService } from "../service/headroom-service";

/** Rides refresh their lease this often, so a long stream outlives a short lease TTL (15 s for the CLI). */
const RIDE_HEARTBEAT_MS = 5_000;

export interface Ride {
  /** Ends the ride; a 429 it met pauses (and may reduce) as the lease's release would. */
  end(rateLimited?: { retryAfterMs?: number }): void;
  /** A 429 that arrived in-band: pauses now, the ride (and the lease) go on. */
  rateLimited(retryAfterMs?: number): void;
}

/** undefined when the lease is unknown, expired or another provider's: the request is gated as usual. */
export function startRide(service: HeadroomService, leaseId: string, providerId: string): Ride | undefined {
  if (!service.rideLease(leaseId, providerId)) return undefined;
  const keepAlive = setInterval(() => {
    try {
      service.heartbeat({ leaseId });
    } catch {
      clearInterval(keepAlive); // released by its owner meanwhile: nothing left to keep alive
    }
  }, RIDE_HEARTBEAT_MS);
  keepAlive.unref();
  let ended = false;
  return {
    rateLimited(retryAfterMs) {
      if (!ended) service.rideRateLimited(leaseId, retryAfterMs);
    },
    end(rateLimited) {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      if (rateLimited) service.rideRateLimited(leaseId, rateLimited.retryAfterMs);
      else service.rideLease(leaseId, providerId); // the ride's end counts as a sign of life
    },
  };
}
