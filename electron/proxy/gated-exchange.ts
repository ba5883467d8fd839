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
import { sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { ClientGone, MAX_PROXY_BODY_BYTES, modelOf, readBoundedBody } from "./request-body";
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
  if (body === "too_large") {
    sendProxyError(res, input.flavor, {
      status: 413,
      code: "payload_too_large",
      message: `the request body is larger than ${MAX_PROXY_BODY_BYTES / 1024 / 1024} MiB, the most the proxy accepts.`,
    });
    return;
  }

  const route: RouteKey = { targetId: providerId, runtimeId: "http", modelId: modelOf(body) };
  const blocked = service.routeBlocked(route);
  if (blocked) return refuseRoute(input, route, blocked);

  let leaseId: string | undefined;
  try {
    leaseId = await takeSlot(input, agentOf(req));
  } catch (error) {
    if (error instanceof ServiceError && error.code === "unknown_provider") {
      sendProxyError(res, input.flavor, { status: 404, code: "unknown_provider", message: error.message });
      return;
    }
    if (error instanceof ServiceError && error.code === "unavailable") {
      sendProxyError(res, input.flavor, { status: 503, code: "unavailable", message: error.message, retryAfterS: 1 });
      return;
    }
    throw error;
  }
  if (leaseId === undefined) return; // the client left while queued
  if (res.destroyed) {
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

  await new Promise<void>((resolve, reject) => {
    try {
      forward(input.upstreams, { ...input, body }, (end) => {
        settle(service, leaseId, route, runId, verdictOf(end, Date.now()));
        resolve();
      });
    } catch (error) {
      // Nothing reached the upstream (e.g. a header Node refuses to send): the slot and the
      // route claim go back before the 500, or a TTL-less proxy lease would be held for ever.
      service.undelivered(leaseId);
      service.routeRelease(route, runId);
      reject(error);
    }
  });
}

/** The slot's lease id, or undefined when the client left while it queued. */
async function takeSlot({ service, req, res, providerId }: GatedInput, agentId: string | undefined): Promise<string | undefined> {
  const ask = { providerId, ...(agentId === undefined ? {} : { agentId }), expires: false };
  // Most requests find a slot free. Only one that queues needs an AbortSignal, to leave the
  // queue when its client hangs up: one per request cost ~15 µs each at saturation.
  try {
    return (await service.acquire({ ...ask, timeoutMs: 0 })).leaseId;
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === "queue_timeout")) throw error;
  }
  const leaving = new AbortController();
  const onLeave = () => leaving.abort();
  res.once("close", onLeave);
  if (res.destroyed || req.socket.destroyed) leaving.abort(); // it left before we listened
  try {
    const { leaseId } = await service.acquire({ ...ask, signal: leaving.signal });
    if (!leaving.signal.aborted) return leaseId;
    service.undelivered(leaseId);
    return undefined;
  } catch (error) {
    if (leaving.signal.aborted) return undefined;
    throw error;
  } finally {
    res.off("close", onLeave);
  }
}

function settle(service: HeadroomService, leaseId: string, route: RouteKey, runId: string, verdict: Verdict): void {
  try {
    service.release(leaseId, verdict.lease, verdict.retryAfterMs);
  } catch (error) {
    // The provider was removed while the request ran: its lease went with it.
    if (!(error instanceof ServiceError && error.code === "unknown_lease")) throw error;
  }
  if (verdict.route === "release") service.routeRelease(route, runId);
  else service.routeOutcome(route, runId, verdict.route, verdict.reason);
}
