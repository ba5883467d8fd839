// The gating proxy's front door (SPEC §6): refuses what no agent on this machine would send
// (a foreign Host, a browser's Origin), maps /<providerId>/... onto the provider's upstream,
// gates generation requests and passes everything else straight through.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { HeadroomService } from "../service/headroom-service";
import { isLoopbackHost } from "../host/loopback";
import { unknownProvider } from "../service/service-error";
import { createUpstreams, forward, type Upstreams } from "./forward";
import { gatedExchange } from "./gated-exchange";
import { flavorOf, sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { isGeneration, parseProxyPath, upstreamUrl } from "./proxy-paths";

/** An upstream silent this long (no connection, no first byte, no next chunk) has failed. */
export const DEFAULT_UPSTREAM_IDLE_MS = 10 * 60_000;
/** After this, close() stops waiting for exchanges to settle (their sockets are already cut). */
const CLOSE_GRACE_MS = 2_000;

export interface ProxyServerOptions {
  /** undefined while loading or shutting down: the proxy answers 503. */
  service: () => HeadroomService | undefined;
  /** Receives messages without header values or query strings: credentials never reach it. */
  log?: (message: string) => void;
  upstreamIdleMs?: number;
}

export interface ProxyServer {
  server: Server;
  /** Cuts in-flight exchanges (their slots and route claims are released) and closes the port. */
  close(): Promise<void>;
}

export function createProxyServer(options: ProxyServerOptions): ProxyServer {
  const log = options.log ?? (() => {});
  const upstreams = createUpstreams(options.upstreamIdleMs ?? DEFAULT_UPSTREAM_IDLE_MS, log);
  const inFlight = new Set<Promise<void>>();

  const server = createServer((req, res) => {
    const exchange = handle(options, upstreams, req, res).catch((error: unknown) => {
      log(`proxy: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      sendProxyError(res, "openai", { status: 500, code: "internal", message: "an unexpected error; see the host log." });
    });
    inFlight.add(exchange);
    void exchange.finally(() => inFlight.delete(exchange));
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
      upstreams.http.destroy();
      upstreams.https.destroy();
    },
  };
}

async function handle(
  options: ProxyServerOptions,
  upstreams: Upstreams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const target = parseProxyPath(req.url ?? "/");
  const flavor: ErrorFlavor = flavorOf(target?.rest);
  if (!isLoopbackHost(req.headers.host)) {
    return sendProxyError(res, flavor, {
      status: 403,
      code: "forbidden_host",
      message: "the proxy only answers requests addressed to 127.0.0.1 or localhost.",
    });
  }
  // Agents never send Origin; browsers always do on cross-site requests. No page may drive us.
  if (req.headers.origin !== undefined) {
    return sendProxyError(res, flavor, {
      status: 403,
      code: "forbidden_origin",
      message: "requests from a web page (with an Origin header) are refused by the proxy.",
    });
  }
  if (!target) {
    return sendProxyError(res, flavor, {
      status: 404,
      code: "not_found",
      message: "proxy paths start with a provider id, e.g. http://127.0.0.1:7412/anthropic/v1/messages.",
    });
  }
  const service = options.service();
  if (!service) {
    return sendProxyError(res, flavor, {
      status: 503,
      code: "unavailable",
      message: "Headroom is starting or shutting down; retry in a moment.",
      retryAfterS: 1,
    });
  }
  const { providerId } = target;
  if (!service.hasProvider(providerId)) {
    const known = service.limits().limits.map((entry) => entry.providerId);
    const { message } = unknownProvider(providerId, known);
    return sendProxyError(res, flavor, { status: 404, code: "unknown_provider", message });
  }
  const upstream = service.providerConfig({ providerId }).upstream;
  if (upstream === undefined) {
    return sendProxyError(res, flavor, {
      status: 502,
      code: "no_upstream",
      message: `provider ${providerId} has no upstream URL. Set one in the window or with PUT /concurrency/providers/${providerId} {"upstream": "https://…"}.`,
    });
  }

  const method = req.method ?? "GET";
  const url = upstreamUrl(upstream, target);
  const label = `${providerId} ${method} ${target.rest}`;
  if (isGeneration(method, target.rest)) {
    await gatedExchange({ service, upstreams, req, res, providerId, target: url, flavor, label });
    return;
  }
  await new Promise<void>((resolve) => forward(upstreams, { req, res, target: url, flavor, label }, () => resolve()));
}
