// How a gated proxy exchange (HTTP or WebSocket) gets under way: on a lease the agent already
// holds (SPEC §6 "Lease-scoped requests"), or with a slot of its own: refuse at once when the
// route is blocked, wait FIFO for a slot (the pool the API hands out), claim the route. Either
// way it ends through exactly one `finish` or `cancel`.
import { randomUUID } from "node:crypto";
import type { RouteKey, RouteRefusal } from "../../shared/types";
import type { HeadroomService } from "../service/headroom-service";
import { ServiceError } from "../service/service-error";
import { startRide } from "./lease-ride";
import type { Verdict } from "./upstream-verdict";

export type ExchangeVerdict = Verdict;

export interface ExchangeEnd {
  /** The exchange ran and ended: settle the slot (or the ride) and the route, once. */
  finish(verdict: ExchangeVerdict): void;
  /** Nothing reached the upstream: the slot returns at once and the route claim goes back. */
  cancel(): void;
}

export type GateStart =
  | { kind: "admitted"; end: ExchangeEnd }
  | { kind: "refused"; route: RouteKey; block: RouteRefusal }
  /** The client left before it could be admitted; nothing is held. */
  | { kind: "gone" };

export interface GateRequest {
  providerId: string;
  modelId: string;
  agentId?: string;
  /** Starts watching for the client to go away, once the request must queue; `stop` when done. */
  leaving: () => { signal: AbortSignal; stop: () => void };
  /** A lease to ride on; unknown, expired or another provider's falls back to a slot of its own. */
  rideOn?: string;
}

/** Settles a route claim once, whatever settles the slot. */
function routeEnd(service: HeadroomService, route: RouteKey, runId: string, settleLease: (verdict?: ExchangeVerdict) => void): ExchangeEnd {
  let settled = false;
  const settle = (verdict: ExchangeVerdict | undefined) => {
    if (settled) return;
    settled = true;
    settleLease(verdict);
    if (!verdict || verdict.route === "release") service.routeRelease(route, runId);
    else service.routeOutcome(route, runId, verdict.route, verdict.reason);
  };
  return { finish: settle, cancel: () => settle(undefined) };
}

function releaseLease(service: HeadroomService, leaseId: string, verdict: ExchangeVerdict): void {
  try {
    service.release(leaseId, verdict.lease, verdict.retryAfterMs);
  } catch (error) {
    // The provider was removed while the request ran: its lease went with it.
    if (!(error instanceof ServiceError && error.code === "unknown_lease")) throw error;
  }
}

/** The slot's lease id, or undefined when the client left while it queued. */
async function takeSlot(service: HeadroomService, request: GateRequest): Promise<string | undefined> {
  const ask = { providerId: request.providerId, ...(request.agentId === undefined ? {} : { agentId: request.agentId }), expires: false };
  try {
    return (await service.acquire({ ...ask, timeoutMs: 0 })).leaseId; // most requests find a slot free
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === "queue_timeout")) throw error;
  }
  const leaving = request.leaving();
  try {
    const { leaseId } = await service.acquire({ ...ask, signal: leaving.signal });
    if (!leaving.signal.aborted) return leaseId;
    service.undelivered(leaseId);
    return undefined;
  } catch (error) {
    if (leaving.signal.aborted) return undefined;
    throw error;
  } finally {
    leaving.stop();
  }
}

/** Throws the service's refusals (unknown_provider, unavailable) for the transport to word. */
export async function openGate(service: HeadroomService, request: GateRequest): Promise<GateStart> {
  const { providerId, modelId } = request;
  const route: RouteKey = { targetId: providerId, runtimeId: "http", modelId };
  const blocked = service.routeBlocked(route);
  if (blocked) return { kind: "refused", route, block: blocked };

  const ride = request.rideOn === undefined ? undefined : startRide(service, request.rideOn, providerId);
  if (ride) {
    const runId = randomUUID();
    const admitted = service.routeAdmit(route, runId);
    if (!admitted.admitted) {
      ride.end();
      return { kind: "refused", route, block: admitted.block };
    }
    return { kind: "admitted", end: routeEnd(service, route, runId, (verdict) => ride.end(verdict?.lease === "rate_limited" ? verdict : undefined)) };
  }

  const leaseId = await takeSlot(service, request);
  if (leaseId === undefined) return { kind: "gone" };
  const runId = randomUUID();
  const admitted = service.routeAdmit(route, runId);
  if (!admitted.admitted) {
    // The route closed its door while we queued: the slot was never used, so no cooldown.
    service.undelivered(leaseId);
    return { kind: "refused", route, block: admitted.block };
  }
  return {
    kind: "admitted",
    end: routeEnd(service, route, runId, (verdict) => (verdict ? releaseLease(service, leaseId, verdict) : service.undelivered(leaseId))),
  };
}
