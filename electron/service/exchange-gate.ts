// The gate protocol of one gated exchange (SPEC §6), below any transport: refuse at once when
// the route is blocked, wait FIFO for a slot of the provider (the pool the API hands out),
// claim the route, and settle both exactly once when the exchange ends. The proxy forwards
// bytes around it; everything about slots and routes happens here, on the service's clock.
import { randomUUID } from "node:crypto";
import type { LeaseOutcome, RouteKey, RouteOutcome, RouteRefusal } from "../../shared/types";
import type { HeadroomService } from "./headroom-service";
import { ServiceError } from "./service-error";

/** What an exchange's ending says about the provider's slot and about the route. */
export interface ExchangeVerdict {
  lease: LeaseOutcome;
  retryAfterMs?: number;
  /** "release" hands a probe claim back: the run said nothing about the route. */
  route: RouteOutcome | "release";
  reason?: string;
}

export interface ExchangeRequest {
  providerId: string;
  modelId: string;
  agentId?: string;
  /** Aborted when the client goes away: a queued waiter leaves the queue. */
  signal: AbortSignal;
}

export interface AdmittedExchange {
  readonly leaseId: string;
  readonly route: RouteKey;
  /** The exchange ran and ended: release the slot and report the route, once. */
  finish(verdict: ExchangeVerdict): void;
  /** Nothing reached the upstream: the slot returns at once (no cooldown) and the claim goes back. */
  cancel(): void;
}

export type ExchangeStart =
  | { kind: "admitted"; exchange: AdmittedExchange }
  | { kind: "refused"; route: RouteKey; block: RouteRefusal }
  /** The client left before it could be admitted; nothing is held. */
  | { kind: "gone" };

/** Throws the service's refusals (unknown_provider, unavailable) for the transport to word. */
export async function openExchange(
  service: HeadroomService,
  request: ExchangeRequest,
  newRunId: () => string = randomUUID,
): Promise<ExchangeStart> {
  const route: RouteKey = { targetId: request.providerId, runtimeId: "http", modelId: request.modelId };
  const blocked = service.routeBlocked(route);
  if (blocked) return { kind: "refused", route, block: blocked };

  let leaseId: string;
  try {
    const admission = await service.acquire({
      providerId: request.providerId,
      ...(request.agentId === undefined ? {} : { agentId: request.agentId }),
      signal: request.signal,
      expires: false, // the connection is the lease
    });
    leaseId = admission.leaseId;
  } catch (error) {
    if (request.signal.aborted) return { kind: "gone" };
    throw error;
  }
  if (request.signal.aborted) {
    service.undelivered(leaseId);
    return { kind: "gone" };
  }

  const runId = newRunId();
  const admitted = service.routeAdmit({ ...route, runId });
  if (!admitted.admitted) {
    // The route closed its door while we queued: the slot was never used, so no cooldown.
    service.undelivered(leaseId);
    return { kind: "refused", route, block: admitted.block };
  }

  let settled = false;
  const once = (settle: () => void) => {
    if (settled) return;
    settled = true;
    settle();
  };
  return {
    kind: "admitted",
    exchange: {
      leaseId,
      route,
      finish: (verdict) =>
        once(() => {
          releaseLease(service, leaseId, verdict);
          if (verdict.route === "release") service.routeRelease({ ...route, runId });
          else service.routeOutcome({ ...route, runId, outcome: verdict.route, ...(verdict.reason ? { reason: verdict.reason } : {}) });
        }),
      cancel: () =>
        once(() => {
          service.undelivered(leaseId);
          service.routeRelease({ ...route, runId });
        }),
    },
  };
}

function releaseLease(service: HeadroomService, leaseId: string, verdict: ExchangeVerdict): void {
  try {
    service.release({ leaseId, outcome: verdict.lease, ...(verdict.retryAfterMs === undefined ? {} : { retryAfterMs: verdict.retryAfterMs }) });
  } catch (error) {
    // The provider was removed while the request ran: its lease went with it.
    if (!(error instanceof ServiceError && error.code === "unknown_lease")) throw error;
  }
}
