// One gated generation request (SPEC §6): read the body for its model, refuse at once when
// the route is blocked, wait FIFO for a slot of the provider's pool (the same pool the API
// hands out), claim the route, forward, and settle both when the exchange ends. The
// connection is the lease: there is no TTL, and a client that leaves gives the slot back.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteKey, RouteRefusal } from "../../shared/types";
import type { HeadroomService } from "../service/headroom-service";
import { ServiceError } from "../service/service-error";
import { forward, type Upstreams } from "./forward";
import { agentOf } from "./forward-headers";
import { startRide, type Ride } from "./lease-ride";
import { sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { ClientGone, modelOf, readBoundedBody, tooLargeError } from "./request-body";
import { StreamErrorScanner } from "./stream-errors";
import { noteUpstreamLimits } from "./upstream-limits-note";
import { verdictOf, type Verdict } from "./upstream-verdict";

export interface GatedInput {
  service: HeadroomService;
  upstreams: Upstreams;
  req: IncomingMessage;
  res: ServerResponse;
  providerId: string;
  target: URL;
  flavor: ErrorFlavor;
  label: string;
  /** The provider's responseTimeoutMs. */
  timeoutMs: number;
  /** A lease this request asks to ride on (path scope or x-headroom-lease). */
  rideOn?: string;
}

const routeName = (route: RouteKey) => `${route.targetId} / ${route.runtimeId} / ${route.modelId}`;

function refuseRoute(input: GatedInput, route: RouteKey, block: RouteRefusal): void {
  const why = block.reason ? ` after "${block.reason}"` : "";
  if (block.kind === "open") {
    const seconds = Math.max(1, Math.ceil(block.remainingMs / 1000));
    sendProxyError(input.res, input.flavor, {
      status: 503,
      code: "route_open",
      message: `route ${routeName(route)} is paused by its circuit breaker${why}; retry in ${seconds} s.`,
      retryAfterS: seconds,
    });
    return;
  }
  sendProxyError(input.res, input.flavor, {
    status: 503,
    code: "route_probing",
    message: `route ${routeName(route)} is being probed by one request${why}; retry in a moment.`,
    retryAfterS: 1,
  });
}

/** Resolves once the exchange is over and its slot and route claim are settled. */
export async function gatedExchange(input: GatedInput): Promise<void> {
  const { service, req, res, providerId } = input;
  let body: Buffer | "too_large";
  try {
    body = await readBoundedBody(req);
  } catch (error) {
    if (error instanceof ClientGone) return;
    throw error;
  }
  if (body === "too_large") return sendProxyError(res, input.flavor, tooLargeError());

  const route: RouteKey = { targetId: providerId, runtimeId: "http", modelId: modelOf(body) };
  const blocked = service.routeBlocked(route);
  if (blocked) return refuseRoute(input, route, blocked);

  const ride = input.rideOn === undefined ? undefined : startRide(service, input.rideOn, providerId);
  if (ride) return rideExchange(input, body, route, ride);

  // A client that hangs up while queued leaves the queue (the pool drops aborted waiters).
  const leaving = new AbortController();
  const onLeave = () => leaving.abort();
  res.once("close", onLeave);
  if (res.destroyed || req.socket.destroyed) leaving.abort(); // it left before we listened
  let leaseId: string;
  try {
    const agentId = agentOf(req);
    const admission = await service.acquire({
      providerId,
      ...(agentId === undefined ? {} : { agentId }),
      signal: leaving.signal,
      expires: false,
    });
    leaseId = admission.leaseId;
  } catch (error) {
    if (leaving.signal.aborted) return;
    if (error instanceof ServiceError && error.code === "unknown_provider") {
      sendProxyError(res, input.flavor, { status: 404, code: "unknown_provider", message: error.message });
      return;
    }
    if (error instanceof ServiceError && error.code === "unavailable") {
      sendProxyError(res, input.flavor, { status: 503, code: "unavailable", message: error.message, retryAfterS: 1 });
      return;
    }
    throw error;
  } finally {
    res.off("close", onLeave);
  }
  if (leaving.signal.aborted || res.destroyed) {
    service.undelivered(leaseId);
    return;
  }

  const runId = randomUUID();
  const admitted = service.routeAdmit(route, runId);
  if (!admitted.admitted) {
    // The route closed its door while we queued: the slot was never used, so no cooldown.
    service.undelivered(leaseId);
    return refuseRoute(input, route, admitted.block);
  }

  await exchange(input, body, route, runId, {
    settle: (verdict) => releaseLease(service, leaseId, verdict),
    unsent: () => service.undelivered(leaseId),
  });
}

/** A request on a held lease: no slot of its own, the breaker as usual. */
async function rideExchange(input: GatedInput, body: Buffer, route: RouteKey, ride: Ride): Promise<void> {
  const runId = randomUUID();
  const admitted = input.service.routeAdmit(route, runId);
  if (!admitted.admitted) {
    ride.end();
    return refuseRoute(input, route, admitted.block);
  }
  await exchange(input, body, route, runId, {
    settle: (verdict) => ride.end(verdict.lease === "rate_limited" ? verdict : undefined),
    unsent: () => ride.end(),
  });
}

interface LeaseEnd {
  settle(verdict: Verdict): void;
  /** Nothing reached the upstream. */
  unsent(): void;
}

function exchange(input: GatedInput, body: Buffer, route: RouteKey, runId: string, lease: LeaseEnd): Promise<void> {
  const { service, providerId } = input;
  const scanner = new StreamErrorScanner();
  let scanning = false;
  const observe = {
    head(incoming: IncomingMessage) {
      noteUpstreamLimits(service, providerId, incoming);
      const status = incoming.statusCode ?? 0;
      scanning = status >= 200 && status < 300 && String(incoming.headers["content-type"]).startsWith("text/event-stream");
    },
    chunk(chunk: Buffer) {
      if (scanning) scanner.feed(chunk);
    },
  };
  return new Promise<void>((resolve, reject) => {
    try {
      forward(input.upstreams, { ...input, body, observe }, (end) => {
        const verdict = verdictOf(end, Date.now(), scanner.error);
        lease.settle(verdict);
        if (verdict.route === "release") service.routeRelease(route, runId);
        else service.routeOutcome(route, runId, verdict.route, verdict.reason);
        resolve();
      });
    } catch (error) {
      // Nothing reached the upstream (e.g. a header Node refuses to send): the slot and the
      // route claim go back before the 500, or a TTL-less proxy lease would be held for ever.
      lease.unsent();
      service.routeRelease(route, runId);
      reject(error);
    }
  });
}

function releaseLease(service: HeadroomService, leaseId: string, verdict: Verdict): void {
  try {
    service.release(leaseId, verdict.lease, verdict.retryAfterMs);
  } catch (error) {
    // The provider was removed while the request ran: its lease went with it.
    if (!(error instanceof ServiceError && error.code === "unknown_lease")) throw error;
  }
}
