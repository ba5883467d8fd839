// One gated generation request (SPEC §6) as HTTP: read the body for its model, open the
// service's exchange (route check, FIFO slot, route claim: electron/service/exchange-gate.ts)
// or ride on a lease the agent already holds, forward, and hand the exchange its verdict when
// it ends — read from the status, the stream's own error events and how the exchange ended.
// The connection is the lease: there is no TTL, and a client that leaves gives the slot back.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteKey, RouteRefusal } from "../../shared/types";
import type { HeadroomService } from "../service/headroom-service";
import type { ExchangeEnd } from "../service/exchange-gate";
import { ServiceError } from "../service/service-error";
import { tame } from "../../shared/tame";
import type { AgentIdentity } from "../agents/agent-identity";
import { UsageTap } from "./usage-tap";
import { forward, type ForwardEnd, type Upstreams } from "./forward";
import { openGate, type GateStart } from "./gate-start";
import { sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { modelOf } from "./body-model";
import { readGatedBody, refuseBody, type BodyBudget, type HeldBody } from "./request-body";
import { StreamErrorScanner, type Framing } from "./stream-errors";
import { requestAgent } from "./request-agent";
import { noteAnswerHead, noteUnreached } from "./upstream-notes";
import { ErrorAnswer } from "./error-answer";
import { streamErrorVerdict, verdictOf } from "./upstream-verdict";
import { usedUpError, WindowObserver } from "./window-observer";
import { atEndOfTurn, type LoopPressure } from "./loop-pressure";

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
  /** Shared by every gated request of this proxy: what their bodies may hold while they wait. */
  bodies: BodyBudget;
  bodyTimeoutMs: number;
  /** The model the path names (Gemini's); else the body's `model` is the route's. */
  pathModel?: string;
  /** While the loop is saturated, the request goes upstream at the end of the loop's turn. */
  pressure: LoopPressure;
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
  const read = await readGatedBody(req, input.bodies, input.bodyTimeoutMs);
  if (read.kind === "gone") return;
  if (read.kind === "refused") return refuseBody(req, res, input.flavor, read, input.bodyTimeoutMs);
  const { held } = read;
  // A used-up plan window: answered at once, nothing reaches the provider (SPEC §8).
  // A request of its own (not riding a lease) waits through a reset that is near (SPEC §8).
  const usedUp = service.windowRefusal(providerId, input.rideOn === undefined);
  if (usedUp) {
    held.release();
    service.stopped(providerId, usedUp.kind, await requestAgent(service, req, input.rideOn), input.rideOn);
    return sendProxyError(res, input.flavor, usedUpError(usedUp, input.flavor, service.clock.now()));
  }

  // A client that hangs up while queued leaves the queue (the pool drops aborted waiters).
  // Watched only once it queues: most requests find a slot free, and an AbortController per
  // request cost ~15 µs each at saturation.
  const leaving = () => {
    const controller = new AbortController();
    const onLeave = () => controller.abort();
    res.once("close", onLeave);
    if (res.destroyed || req.socket.destroyed) controller.abort(); // it left before we listened
    return { signal: controller.signal, stop: () => res.off("close", onLeave) };
  };
  let start: GateStart;
  const modelId = input.pathModel ?? modelOf(held.peek());
  // Each await below is taken only when there is something to wait for: with the connection's
  // process known and a slot free, the request goes upstream in the turn its body completed.
  const found = requestAgent(service, req, input.rideOn);
  const agent = found instanceof Promise ? await found : found;
  if (input.rideOn !== undefined) service.rode(input.rideOn, agent);
  try {
    const opened = openGate(service, { providerId, modelId, agent, leaving, ...(input.rideOn === undefined ? {} : { rideOn: input.rideOn }) });
    start = opened instanceof Promise ? await opened : opened;
  } catch (error) {
    held.release();
    if (error instanceof ServiceError && error.code === "unknown_provider") {
      sendProxyError(res, input.flavor, { status: 404, code: "unknown_provider", message: error.message });
      return;
    }
    // It waited through a near reset that slipped too far, or 60 s past it: answered like any refusal.
    if (error instanceof ServiceError && error.code === "queue_timeout") {
      const usedUpNow = service.windowRefusal(providerId);
      if (usedUpNow) return sendProxyError(res, input.flavor, usedUpError(usedUpNow, input.flavor, service.clock.now()));
      const message = `${providerId}'s plan window did not reopen within 60 s of its reset. New requests are refused for now; retry in a minute.`;
      return sendProxyError(res, input.flavor, { status: 429, code: "usage_limit_reached", message, retryAfterS: 60 });
    }
    if (error instanceof ServiceError && error.code === "unavailable") {
      sendProxyError(res, input.flavor, { status: 503, code: "unavailable", message: error.message, retryAfterS: 1 });
      return;
    }
    throw error;
  }
  if (start.kind !== "admitted" || res.destroyed) held.release();
  if (start.kind === "gone") return;
  if (start.kind === "refused") return refuseRoute(input, start.route, start.block);
  if (res.destroyed) return start.end.cancel();
  // A daily budget reached, or a window used up, while it queued (SPEC §8, §9): the slot goes back
  // unused, refused like the rest. A pause whose reset is near is not one: a shared provider's
  // pause, read on this host's clock, may still show for a moment after Redis let the reset's
  // probe in, and a request may wait through a near reset anyway.
  const late = service.windowRefusal(providerId, true);
  if (late) {
    held.release();
    start.end.cancel();
    return sendProxyError(res, input.flavor, usedUpError(late, input.flavor, service.clock.now()));
  }
  // Admitted: the body leaves the budget as it is handed to the upstream (the slots bound it from here on).
  await run(input, held, start.end, { agent, model: tame(modelId) });
}

function run(input: GatedInput, held: HeldBody, end: ExchangeEnd, who: { agent: AgentIdentity; model: string }): Promise<void> {
  const { service, providerId } = input;
  const windows = new WindowObserver(service, providerId);
  const google = input.flavor === "google";
  const scanner = new StreamErrorScanner((data) => windows.event(data), { google });
  const usage = new UsageTap();
  let framing: Framing | undefined;
  let errorAnswer: ErrorAnswer | undefined;
  const observe = {
    head(incoming: IncomingMessage) {
      noteAnswerHead(service, providerId, incoming);
      const status = incoming.statusCode ?? 0;
      windows.head(status, incoming.headers);
      const sse = String(incoming.headers["content-type"]).startsWith("text/event-stream");
      // Google's stream without `alt=sse` is one JSON array; its error is an element of it.
      framing = status < 200 || status >= 300 ? undefined : sse ? "sse" : google ? "json" : undefined;
      if (status === 429) errorAnswer = new ErrorAnswer(incoming.headers["content-encoding"]);
    },
    chunk(chunk: Buffer) {
      errorAnswer?.add(chunk);
      usage.feed(chunk);
      if (!framing) return;
      // The scanner stops at the first error: after it the stream is ending, and what it said counts.
      const before = scanner.error;
      scanner.feed(chunk, framing);
      // In-band: it counts the moment it passes, and the stream's end adds nothing more.
      if (!before && scanner.error) end.applyNow(streamErrorVerdict(scanner.error));
    },
  };
  return new Promise<void>((resolve, reject) => {
    const go = () => {
      const { req, res, target, flavor, label, timeoutMs } = input;
      try {
        // Batched, the client may have left in the meantime: the slot goes back unused.
        if (res.destroyed) {
          held.release();
          end.cancel();
          return resolve();
        }
        const settle = (ending: ForwardEnd) => {
          const errorText = errorAnswer?.text();
          windows.end(errorText);
          noteUnreached(service, providerId, ending);
          const verdict = verdictOf(ending, service.clock.now(), scanner.error, errorText);
          end.finish(verdict);
          // The provider refused it by a window (it pauses now): the lease's run may wait it out (SPEC §8).
          const stop = verdict.lease === "rate_limited" ? service.windowRefusal(providerId) : undefined;
          if (stop) service.stopped(providerId, stop.kind, who.agent, input.rideOn);
          const tokens = usage.usage;
          const upstream = { host: input.target.host, format: input.flavor };
          service.countAnswer({ providerId, ...who, upstream, outcome: verdict.lease, ...(tokens === undefined ? {} : { tokens }) });
          resolve();
        };
        forward(input.upstreams, { req, res, target, flavor, label, timeoutMs, body: held.take(), observe, pressure: input.pressure }, (ending) => {
          // Saturated, the books are settled at the end of the loop's turn, after the bytes.
          if (input.pressure.saturated()) atEndOfTurn(settle, ending);
          else settle(ending);
        });
      } catch (error) {
        // Nothing reached the upstream (e.g. a header Node refuses to send): the slot and the
        // route claim go back before the 500, or a TTL-less proxy lease would be held for ever.
        held.release();
        end.cancel();
        reject(error);
      }
    };
    if (input.pressure.saturated()) atEndOfTurn(go, undefined);
    else go();
  });
}
