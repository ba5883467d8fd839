// One gated generation request (SPEC §6) as HTTP: read the body for its model, open the
// service's exchange (route check, FIFO slot, route claim: electron/service/exchange-gate.ts),
// forward, and hand the exchange its verdict when it ends. The connection is the lease: there
// is no TTL, and a client that leaves gives the slot back.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteKey, RouteRefusal } from "../../shared/types";
import type { HeadroomService } from "../service/headroom-service";
import { openExchange, type ClientWatch, type ExchangeStart } from "../service/exchange-gate";
import { ServiceError } from "../service/service-error";
import { forward, type Upstreams } from "./forward";
import { agentOf } from "./forward-headers";
import { sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { ClientGone, MAX_PROXY_BODY_BYTES, modelOf, readBoundedBody } from "./request-body";
import { verdictOf } from "./upstream-verdict";

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

  let start: ExchangeStart;
  try {
    const agentId = agentOf(req);
    start = await openExchange(service, {
      providerId,
      modelId: modelOf(body),
      ...(agentId === undefined ? {} : { agentId }),
      watchClient: () => watchClient(req, res),
    });
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
  if (start.kind === "gone") return;
  if (start.kind === "refused") return refuseRoute(input, start.route, start.block);
  const { exchange } = start;
  if (res.destroyed) return exchange.cancel();

  await new Promise<void>((resolve, reject) => {
    try {
      forward(input.upstreams, { ...input, body }, (end) => {
        exchange.finish(verdictOf(end, service.clock.now()));
        resolve();
      });
    } catch (error) {
      // Nothing reached the upstream (e.g. a header Node refuses to send): the slot and the
      // route claim go back before the 500, or a TTL-less proxy lease would be held for ever.
      exchange.cancel();
      reject(error);
    }
  });
}

/** A client that hangs up while queued leaves the queue (the pool drops aborted waiters). */
function watchClient(req: IncomingMessage, res: ServerResponse): ClientWatch {
  const leaving = new AbortController();
  const onLeave = () => leaving.abort();
  res.once("close", onLeave);
  if (res.destroyed || req.socket.destroyed) leaving.abort(); // it left before we listened
  return { signal: leaving.signal, stop: () => res.off("close", onLeave) };
}
