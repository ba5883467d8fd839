// The gate protocol of one gated exchange (SPEC §6), below any transport: refuse at once when
// the route is blocked, wait FIFO for a slot of the provider (the pool the API hands out),
// claim the route, and settle both exactly once when the exchange ends. The proxy forwards
// bytes around it; everything about slots and routes happens here, on the service's clock.
import { randomUUID } from "node:crypto";
import { tame } from "../../shared/tame";
import type { LeaseOutcome, RouteAdmission, RouteKey, RouteOutcome, RouteRefusal } from "../../shared/types";
import type { AgentIdentity } from "../agents/agent-identity";
import type { HeadroomService } from "./headroom-service";
import type { RouteRun } from "./route-service";
import { ServiceError } from "./service-error";

/** What an exchange's ending says about the provider's slot and about the route. */
export interface ExchangeVerdict {
  lease: LeaseOutcome;
  retryAfterMs?: number;
  /** "release" hands a probe claim back: the run said nothing about the route. */
  route: RouteOutcome | "release";
  reason?: string;
}

/** Aborted when the client goes away; `stop` ends the watching. */
interface ClientWatch {
  signal: AbortSignal;
  stop(): void;
}

export interface ExchangeRequest {
  providerId: string;
  modelId: string;
  /** Who asks (SPEC §9); the pool's lease carries its name. */
  agent?: AgentIdentity;
  /**
   * Starts watching for the client going away, so a queued waiter leaves the queue. Called
   * only when the request must queue: most find a slot free, and one watch per request cost
   * ~15 µs each at saturation.
   */
  watchClient: () => ClientWatch;
}

export interface ExchangeEnd {
  /** The exchange ran and ended: settle the slot (or the ride) and the route. */
  finish(verdict: ExchangeVerdict): void;
  /**
   * An error arrived in-band (SPEC §6 "In-band errors act when they arrive"): its outcome
   * counts now (a 429 pauses the provider, a server error fails the route) while the
   * exchange keeps its slot; the later `finish` adds no second outcome (released `abandoned`).
   */
  applyNow(verdict: ExchangeVerdict): void;
  /** Nothing reached the upstream: the slot returns at once (no cooldown) and the claim goes back. */
  cancel(): void;
}

export interface AdmittedExchange extends ExchangeEnd {
  readonly leaseId: string;
  readonly route: RouteKey;
}

/**
 * An exchange ends once: whichever of finish and cancel comes first settles it, the other does
 * nothing; an in-band outcome counts at most once, and then the end only frees the slot. A class
 * rather than closures: every proxied request makes one (issue 27).
 */
export abstract class EndsOnce implements ExchangeEnd {
  private settled = false;
  private applied = false;

  finish(verdict: ExchangeVerdict): void {
    if (this.settling()) this.finished(verdict);
  }
  cancel(): void {
    if (this.settling()) this.cancelled();
  }
  applyNow(verdict: ExchangeVerdict): void {
    if (this.settled || this.applied) return;
    this.applied = true;
    this.appliedNow(verdict);
  }

  /** true when this end is the one to settle; after an in-band outcome it only frees what is held. */
  private settling(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (!this.applied) return true;
    this.releaseAfterApplied();
    return false;
  }

  /** The whole outcome: settle the slot (or the ride) and the route. */
  protected abstract finished(verdict: ExchangeVerdict): void;
  /** Nothing was sent: the slot returns at once and the claim goes back. */
  protected abstract cancelled(): void;
  /** The in-band outcome (a 429's pause, a route failure), while the exchange keeps its slot. */
  protected abstract appliedNow(verdict: ExchangeVerdict): void;
  /** The end after an in-band outcome: free what is held, with no second outcome. */
  protected abstract releaseAfterApplied(): void;
}

/** An exchange on a slot of the provider's pool, with its route claimed. */
class SlotExchange extends EndsOnce implements AdmittedExchange {
  constructor(
    private readonly service: HeadroomService,
    readonly leaseId: string,
    readonly route: RouteKey,
    private readonly run: RouteRun,
  ) {
    super();
  }
  protected finished(verdict: ExchangeVerdict): void {
    releaseLease(this.service, this.leaseId, verdict);
    this.service.settleRoute(this.run, verdict);
  }
  protected cancelled(): void {
    this.service.undelivered(this.leaseId);
    this.service.settleRoute(this.run, { route: "release" });
  }
  protected appliedNow(verdict: ExchangeVerdict): void {
    if (verdict.lease === "rate_limited") this.service.rideRateLimited(this.leaseId, verdict.retryAfterMs);
    this.service.settleRoute(this.run, verdict);
  }
  protected releaseAfterApplied(): void {
    releaseLease(this.service, this.leaseId, { lease: "abandoned", route: "release" });
  }
}

export type ExchangeStart =
  | { kind: "admitted"; exchange: AdmittedExchange }
  | { kind: "refused"; route: RouteKey; block: RouteRefusal }
  /** The client left before it could be admitted; nothing is held. */
  | { kind: "gone" };

/**
 * Throws the service's refusals (unknown_provider, unavailable) for the transport to word.
 * A local route with a slot free answers at once, without a promise: most proxied requests
 * (issue 27: the ten awaits from body to slot were a promise and a microtask each).
 */
export function openExchange(
  service: HeadroomService,
  wire: ExchangeRequest,
  newRunId: () => string = randomUUID,
): ExchangeStart | Promise<ExchangeStart> {
  // SPEC §6: a model name and an upstream's reason reach the status, history, log, /metrics and
  // CLI tamed (the proxy tames the agent header itself).
  const request = { ...wire, modelId: tame(wire.modelId) };
  const route: RouteKey = { targetId: request.providerId, runtimeId: "http", modelId: request.modelId };
  // A local route answers at once; a shared provider's route after a round trip to Redis.
  const blocked = service.routeBlocked(route);
  if (blocked instanceof Promise) return blocked.then((block) => (block ? refused(route, block) : queued(service, request, route, newRunId)));
  if (blocked) return refused(route, blocked);
  const leaseId = service.acquireNow(request.providerId, request.agent);
  if (leaseId === undefined) return queued(service, request, route, newRunId);
  return claimRoute(service, leaseId, route, newRunId());
}

const refused = (route: RouteKey, block: RouteRefusal): ExchangeStart => ({ kind: "refused", route, block });

/** No slot free now (or a shared provider): wait FIFO for one, then claim the route. */
async function queued(service: HeadroomService, request: ExchangeRequest, route: RouteKey, newRunId: () => string): Promise<ExchangeStart> {
  const leaseId = await takeSlot(service, request);
  if (leaseId === undefined) return { kind: "gone" };
  return claimRoute(service, leaseId, route, newRunId());
}

/** The slot is held: claim the route (a local one at once), or hand the slot back unused. */
function claimRoute(service: HeadroomService, leaseId: string, route: RouteKey, runId: string): ExchangeStart | Promise<ExchangeStart> {
  const run = { ...route, runId };
  let admitted: RouteAdmission | Promise<RouteAdmission>;
  try {
    admitted = service.routeAdmit(run);
  } catch (error) {
    service.undelivered(leaseId); // the host closed while the slot was being claimed
    throw error;
  }
  if (!(admitted instanceof Promise)) return started(service, leaseId, route, run, admitted);
  return admitted.then(
    (answer) => started(service, leaseId, route, run, answer),
    (error: unknown) => {
      service.undelivered(leaseId);
      throw error;
    },
  );
}

function started(service: HeadroomService, leaseId: string, route: RouteKey, run: RouteRun, admitted: RouteAdmission): ExchangeStart {
  if (!admitted.admitted) {
    // The route closed its door while we queued: the slot was never used, so no cooldown.
    service.undelivered(leaseId);
    return refused(route, admitted.block);
  }
  return { kind: "admitted", exchange: new SlotExchange(service, leaseId, route, run) };
}

/** The slot's lease id, or undefined when the client left while it queued. */
async function takeSlot(service: HeadroomService, request: ExchangeRequest): Promise<string | undefined> {
  const ask = {
    providerId: request.providerId,
    ...(request.agent === undefined ? {} : { agentId: request.agent.name, agent: request.agent }),
    expires: false, // the connection is the lease
  };
  try {
    return (await service.acquire({ ...ask, timeoutMs: 0 })).leaseId;
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === "queue_timeout")) throw error;
  }
  const watch = request.watchClient();
  try {
    const { leaseId } = await service.acquire({ ...ask, signal: watch.signal });
    if (!watch.signal.aborted) return leaseId;
    service.undelivered(leaseId);
    return undefined;
  } catch (error) {
    if (watch.signal.aborted) return undefined;
    throw error;
  } finally {
    watch.stop();
  }
}

function releaseLease(service: HeadroomService, leaseId: string, verdict: ExchangeVerdict): void {
  try {
    service.release({ leaseId, outcome: verdict.lease, ...(verdict.retryAfterMs === undefined ? {} : { retryAfterMs: verdict.retryAfterMs }) });
  } catch (error) {
    // The provider was removed while the request ran: its lease went with it.
    if (!(error instanceof ServiceError && error.code === "unknown_lease")) throw error;
  }
}
