// The gating proxy's front door (SPEC §6): refuses what no agent on this machine would send
// (a foreign Host, a browser's Origin), maps /<providerId>/... onto the provider's upstream,
// gates generation requests and passes everything else straight through.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { HeadroomService } from "../service/headroom-service";
import { isLoopbackHost } from "../../shared/loopback";
import { unknownProvider } from "../service/service-error";
import { createUpstreams, forward, type Upstreams } from "./forward";
import { hopsOf, LEASE_HEADER } from "./forward-headers";
import { gatedExchange } from "./gated-exchange";
import { connectionOpened } from "./request-agent";
import { flavorOf, flavorOfRawUrl, sendProxyError, type ErrorFlavor, type ProxyError } from "./proxy-errors";
import { isGatedUpgrade, isGeneration, parseProxyPath, upstreamUrl, type ProxyTarget } from "./proxy-paths";
import { BodyBudget, declaresTooLarge, DEFAULT_BODY_TIMEOUT_MS, refuseBody, tooLargeError } from "./request-body";
import { NO_UPSTREAM, noteAnswerHead, noteUnreached } from "./upstream-notes";
import { createWebSocketGate, DEFAULT_WEBSOCKET_IDLE_MS } from "./websocket-gate";
import { EventLoopPressure, type LoopPressure } from "./loop-pressure";

/** SPEC §1 `responseTimeoutMs` default: the proxy notices a hang before the SDKs' own 600 s. */
const DEFAULT_UPSTREAM_IDLE_MS = 300_000;
/** After this, close() stops waiting for exchanges to settle (their sockets are already cut). */
const CLOSE_GRACE_MS = 2_000;

export interface ProxyServerOptions {
  /** undefined while loading or shutting down: the proxy answers 503. */
  service: () => HeadroomService | undefined;
  /** Receives messages without header values or query strings: credentials never reach it. */
  log?: (message: string) => void;
  /** Overrides every provider's responseTimeoutMs: tests use values below its 1 s minimum. */
  upstreamIdleMs?: number;
  webSocketIdleMs?: number;
  /** How long a gated body may take to arrive (default 60 s; tests shorten it). */
  bodyTimeoutMs?: number;
  /** Whether gated requests are batched per loop turn (default: while the loop is saturated). */
  pressure?: LoopPressure;
}

export interface ProxyServer {
  server: Server;
  /** Cuts in-flight exchanges (their slots and route claims are released) and closes the port. */
  close(): Promise<void>;
}

export function createProxyServer(options: ProxyServerOptions): ProxyServer {
  const log = options.log ?? (() => {});
  // A fresh id per proxy: a request that comes back carrying it has looped through our upstream.
  const upstreams = createUpstreams(randomUUID(), log);
  const inFlight = new Set<Promise<void>>();
  const track = (exchange: Promise<void>) => {
    inFlight.add(exchange);
    void exchange.finally(() => inFlight.delete(exchange));
  };
  const bodies = new BodyBudget();
  const pressure = options.pressure ?? new EventLoopPressure();
  const webSockets = createWebSocketGate(upstreams, options.webSocketIdleMs ?? DEFAULT_WEBSOCKET_IDLE_MS);

  const server = createServer((req, res) => {
    track(
      handle(options, upstreams, bodies, pressure, req, res).catch((error: unknown) => {
        log(`proxy: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
        sendProxyError(res, "openai", { status: 500, code: "internal", message: "an unexpected error; see the host log." });
      }),
    );
  });
  server.on("connection", connectionOpened);
  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    const refuse = (flavor: ErrorFlavor, error: ProxyError) => webSockets.refuse(socket, flavor, error);
    const checked = admissible(options, upstreams, req, refuse);
    if (!checked) return;
    const { service, target, upstream, flavor } = checked;
    if (!isGatedUpgrade(req.method ?? "GET", target)) {
      return refuse(flavor, { status: 404, code: "not_found", message: "the proxy takes WebSockets only on generation paths such as /v1/responses." });
    }
    track(
      webSockets
        .tunnel({ service, req, socket, head, providerId: target.providerId, target: upstreamUrl(upstream, target), flavor, timeoutMs: timeoutOf(options, service, target.providerId), ...rideOf(req, target) })
        .catch((error: unknown) => {
          log(`proxy: unexpected WebSocket error: ${error instanceof Error ? error.message : String(error)}`);
          socket.destroy();
        }),
    );
  });
  // A queued request may wait, and a stream may run, far longer than Node's 300 s default.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  return {
    server,
    close: async () => {
      server.close();
      server.closeAllConnections();
      const grace = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      webSockets.close();
      upstreams.http.destroy();
      upstreams.https.destroy();
    },
  };
}

interface Admissible {
  service: HeadroomService;
  target: ProxyTarget;
  upstream: string;
  flavor: ErrorFlavor;
}

/** The checks every request passes before it is forwarded or gated, WebSocket upgrades included. */
function admissible(
  options: ProxyServerOptions,
  upstreams: Upstreams,
  req: IncomingMessage,
  refuse: (flavor: ErrorFlavor, error: ProxyError) => void,
): Admissible | undefined {
  const parsed = parseProxyPath(req.url ?? "/");
  const target = parsed && "providerId" in parsed ? parsed : undefined;
  const flavor: ErrorFlavor = target ? flavorOf(target.gatingPath) : flavorOfRawUrl(req.url ?? "");
  if (!isLoopbackHost(req.headers.host)) {
    refuse(flavor, {
      status: 403,
      code: "forbidden_host",
      message: "the proxy only answers requests addressed to 127.0.0.1 or localhost.",
    });
    return undefined;
  }
  // Agents never send Origin; browsers always do on cross-site requests. No page may drive us.
  if (req.headers.origin !== undefined) {
    refuse(flavor, {
      status: 403,
      code: "forbidden_origin",
      message: "requests from a web page (with an Origin header) are refused by the proxy.",
    });
    return undefined;
  }
  // Every cross-site <img>, <script>, form and no-cors fetch carries it, without an Origin on
  // a GET; agents and SDKs send none (Node's fetch sends only Sec-Fetch-Mode).
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "none") {
    refuse(flavor, {
      status: 403,
      code: "forbidden_origin",
      message: `requests a browser marks as coming from a web page (Sec-Fetch-Site: ${site === "same-origin" || site === "same-site" || site === "cross-site" ? site : "…"}) are refused by the proxy.`,
    });
    return undefined;
  }
  if (parsed && "refused" in parsed) {
    refuse(flavor, { status: 400, code: "invalid_input", message: parsed.refused });
    return undefined;
  }
  if (!target) {
    refuse(flavor, {
      status: 404,
      code: "not_found",
      message: "proxy paths start with a provider id, e.g. http://127.0.0.1:7412/anthropic/v1/messages.",
    });
    return undefined;
  }
  const { providerId } = target;
  if (hopsOf(req).includes(upstreams.hopId)) {
    refuse(flavor, {
      status: 508,
      code: "loop_detected",
      message: `the upstream of provider ${providerId} points back at a Headroom proxy, so this request came back to it. Set ${providerId}'s upstream to the provider's real URL.`,
    });
    return undefined;
  }
  const service = options.service();
  if (!service) {
    refuse(flavor, {
      status: 503,
      code: "unavailable",
      message: "Headroom is starting or shutting down; retry in a moment.",
      retryAfterS: 1,
    });
    return undefined;
  }
  if (!service.hasProvider(providerId)) {
    const known = service.limits().limits.map((entry) => entry.providerId);
    const { message } = unknownProvider(providerId, known);
    refuse(flavor, { status: 404, code: "unknown_provider", message });
    return undefined;
  }
  const upstream = service.providerConfig({ providerId }).upstream;
  if (upstream === undefined) {
    service.noteUpstreamFailure(providerId, NO_UPSTREAM);
    refuse(flavor, {
      status: 502,
      code: "no_upstream",
      message: `provider ${providerId} has no upstream URL. Set one in the window or with PUT /concurrency/providers/${providerId} {"upstream": "https://…"}.`,
    });
    return undefined;
  }
  return { service, target, upstream, flavor };
}

function timeoutOf(options: ProxyServerOptions, service: HeadroomService, providerId: string): number {
  return options.upstreamIdleMs ?? service.providerConfig({ providerId }).responseTimeoutMs ?? DEFAULT_UPSTREAM_IDLE_MS;
}

/** The lease a request asks to ride on: the path's scope first, else x-headroom-lease. */
function rideOf(req: IncomingMessage, target: ProxyTarget): { rideOn?: string } {
  const header = req.headers[LEASE_HEADER];
  const leaseId = target.leaseId ?? (typeof header === "string" && header.trim() !== "" ? header.trim() : undefined);
  return leaseId === undefined ? {} : { rideOn: leaseId };
}

async function handle(
  options: ProxyServerOptions,
  upstreams: Upstreams,
  bodies: BodyBudget,
  pressure: LoopPressure,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const checked = admissible(options, upstreams, req, (flavor, error) => sendProxyError(res, flavor, error));
  if (!checked) return;
  const { service, target, upstream, flavor } = checked;
  const { providerId } = target;
  const method = req.method ?? "GET";
  const url = upstreamUrl(upstream, target);
  const label = `${providerId} ${method} ${target.rest}`;
  const timeoutMs = timeoutOf(options, service, providerId);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (declaresTooLarge(req)) return refuseBody(req, res, flavor, { error: tooLargeError(), drain: true }, bodyTimeoutMs);
  if (isGeneration(method, target)) {
    const { pathModel } = target;
    await gatedExchange({ service, upstreams, req, res, providerId, target: url, flavor, label, timeoutMs, bodies, bodyTimeoutMs, pressure, ...rideOf(req, target), ...(pathModel ? { pathModel } : {}) });
    return;
  }
  const observe = { head: (incoming: IncomingMessage) => noteAnswerHead(service, providerId, incoming), chunk: () => {} };
  await new Promise<void>((resolve) =>
    forward(upstreams, { req, res, target: url, flavor, label, timeoutMs, observe }, (end) => {
      noteUnreached(service, providerId, end);
      resolve();
    }),
  );
}
