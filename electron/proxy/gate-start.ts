// How a gated proxy exchange (HTTP or WebSocket) gets under way: on a lease the agent already
// holds (SPEC §6 "Lease-scoped requests"), or through the service's exchange (route check,
// FIFO slot, route claim). Either way it ends through one `finish` or `cancel`.
import { randomUUID } from "node:crypto";
import { tame } from "../../shared/tame";
import type { RouteAdmission, RouteKey, RouteRefusal } from "../../shared/types";
import type { AgentIdentity } from "../agents/agent-identity";
import { EndsOnce, openExchange, type ExchangeEnd, type ExchangeStart, type ExchangeVerdict } from "../service/exchange-gate";
import type { RouteRun } from "../service/route-service";
import type { HeadroomService } from "../service/headroom-service";
import { startRide, type Ride } from "./lease-ride";

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

/**
 * Throws the service's refusals (unknown_provider, unavailable) for the transport to word. A
 * request of its own on a local route with a slot free starts at once, with no promise.
 */
export function openGate(service: HeadroomService, request: GateRequest): GateStart | Promise<GateStart> {
  const { providerId } = request;
  // The route key reaches the status, history and metrics: wire text, tamed (SPEC §6).
  const modelId = tame(request.modelId);
  const ride = request.rideOn === undefined ? undefined : startRide(service, request.rideOn, providerId);
  if (ride) return rideGate(service, ride, providerId, modelId);
  const start = openExchange(service, {
    providerId,
    modelId,
    ...(request.agent === undefined ? {} : { agent: request.agent }),
    watchClient: request.leaving,
  });
  return start instanceof Promise ? start.then(gateStartOf) : gateStartOf(start);
}

const gateStartOf = (start: ExchangeStart): GateStart => (start.kind === "admitted" ? { kind: "admitted", end: start.exchange } : start);

/** On a lease the agent holds: the route is still checked and claimed; the slot is the lease's. */
async function rideGate(service: HeadroomService, ride: Ride, providerId: string, modelId: string): Promise<GateStart> {
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
  return { kind: "admitted", end: new RideExchange(service, ride, run) };
}

/** An exchange riding on a lease: its end ends the ride (a 429 pausing as the lease's release would). */
class RideExchange extends EndsOnce {
  constructor(
    private readonly service: HeadroomService,
    private readonly ride: Ride,
    private readonly run: RouteRun,
  ) {
    super();
  }
  protected finished(verdict: ExchangeVerdict): void {
    this.ride.end(verdict.lease === "rate_limited" ? verdict : undefined);
    this.service.settleRoute(this.run, verdict);
  }
  protected cancelled(): void {
    this.ride.end();
    this.service.settleRoute(this.run, { route: "release" });
  }
  protected appliedNow(verdict: ExchangeVerdict): void {
    if (verdict.lease === "rate_limited") this.ride.rateLimited(verdict.retryAfterMs);
    this.service.settleRoute(this.run, verdict);
  }
  protected releaseAfterApplied(): void {
    this.ride.end();
  }
}
