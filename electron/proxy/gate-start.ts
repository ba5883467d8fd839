// How a gated proxy exchange (HTTP or WebSocket) gets under way: on a lease the agent already
// holds (SPEC §6 "Lease-scoped requests"), or through the service's exchange (route check,
// FIFO slot, route claim). Either way it ends through one `finish` or `cancel`.
import { randomUUID } from "node:crypto";
import type { RouteAdmission, RouteKey, RouteRefusal } from "../../shared/types";
import type { AgentIdentity } from "../agents/agent-identity";
import { endOnce, openExchange, type ExchangeEnd } from "../service/exchange-gate";
import type { HeadroomService } from "../service/headroom-service";
import { startRide } from "./lease-ride";

export type GateStart =
  | { kind: "admitted"; end: ExchangeEnd }
  | { kind: "refused"; route: RouteKey; block: RouteRefusal }
  | { kind: "gone" };

export interface GateRequest {
  providerId: string;
  modelId: string;
  /** Who asks (SPEC §9); the pool's lease carries its name. */
  agent?: AgentIdentity;
  /** Starts watching for the client to go away, once the request must queue; `stop` when done. */
  leaving: () => { signal: AbortSignal; stop: () => void };
  /** A lease to ride on; unknown, expired or another provider's falls back to a slot of its own. */
  rideOn?: string;
}

/** Throws the service's refusals (unknown_provider, unavailable) for the transport to word. */
export async function openGate(service: HeadroomService, request: GateRequest): Promise<GateStart> {
  const { providerId, modelId } = request;
  const ride = request.rideOn === undefined ? undefined : startRide(service, request.rideOn, providerId);
  if (!ride) {
    const start = await openExchange(service, {
      providerId,
      modelId,
      ...(request.agent === undefined ? {} : { agent: request.agent }),
      watchClient: request.leaving,
    });
    return start.kind === "admitted" ? { kind: "admitted", end: start.exchange } : start;
  }

  const route: RouteKey = { targetId: providerId, runtimeId: "http", modelId };
  const run = { ...route, runId: randomUUID() };
  let admitted: RouteAdmission;
  try {
    const blocked = await service.routeBlocked(route);
    admitted = blocked ? { admitted: false, block: blocked } : await service.routeAdmit(run);
  } catch (error) {
    ride.end();
    throw error;
  }
  if (!admitted.admitted) {
    ride.end();
    return { kind: "refused", route, block: admitted.block };
  }
  const end = endOnce({
    finish: (verdict) => {
      ride.end(verdict.lease === "rate_limited" ? verdict : undefined);
      service.settleRoute(run, verdict);
    },
    cancel: () => {
      ride.end();
      service.settleRoute(run, { route: "release" });
    },
    applyNow: (verdict) => {
      if (verdict.lease === "rate_limited") ride.rateLimited(verdict.retryAfterMs);
      service.settleRoute(run, verdict);
    },
    releaseAfterApplied: () => ride.end(),
  });
  return { kind: "admitted", end };
}
