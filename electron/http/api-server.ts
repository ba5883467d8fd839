// The loopback API's request pipeline: Host check, then the tokenless routes, then the bearer
// token, then the route table. Every refusal has the SPEC §3 error body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { HeadroomService } from "../service/headroom-service";
import { ServiceError } from "../service/service-error";
import { API_ROUTES, StatusReply, type ApiRoute } from "./api-routes";
import { readJsonBody, sendError, sendJson } from "./http-io";
import { answerClientError } from "./client-error";
import { isLoopbackHost, isOwnOrigin } from "../../shared/loopback";
import { API_SEGMENTS } from "../../shared/operations";
import { noteRequest } from "./socket-requests";
import { serveStatic } from "./static-files";

export interface ApiServerOptions {
  /** undefined while loading or shutting down: the API answers 503. */
  service: () => HeadroomService | undefined;
  token: string;
  version: string;
  /** The built window, served without a token so a browser can load it. */
  staticDir?: string;
}

interface CompiledRoute extends ApiRoute {
  segments: string[];
}

const compiled: CompiledRoute[] = API_ROUTES.map((route) => ({ ...route, segments: route.pattern.split("/") }));

interface Match {
  route: CompiledRoute;
  params: Record<string, string>;
}

/**
 * Every route whose path fits, whatever its method, so a wrong method can answer 405. Matched
 * on the path as sent: `/limits/%2e%2e` and `/limits/` reach the route and their id is refused
 * as malformed (400), instead of being resolved away into another path.
 */
function match(rawPath: string): Match[] {
  const parts = rawPath.split("/");
  const found: Match[] = [];
  for (const route of compiled) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = route.segments.every((segment, i) => {
      const part = parts[i] as string;
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = decodeSegment(part);
        return true;
      }
      return segment === part;
    });
    if (fits) found.push({ route, params });
  }
  return found;
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badEscape();
  }
}

/** The path of the request line before any normalisation (origin-form; absolute-form via URL). */
function rawPathOf(target: string, parsed: URL): string {
  return target.startsWith("/") ? (target.split(/[?#]/)[0] as string) : parsed.pathname;
}

/** The request target as a URL; a broken one (`http://[/`) or a bad escape is the client's error. */
function parseTarget(target: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(target ?? "/", "http://127.0.0.1");
  } catch {
    throw new ServiceError("invalid_input", `The request target ${JSON.stringify(target)} is not a valid path.`);
  }
  try {
    decodeURIComponent(url.pathname);
  } catch {
    throw badEscape();
  }
  return url;
}

function badEscape(): ServiceError {
  return new ServiceError("invalid_input", "The path holds a malformed percent-escape (such as %ZZ or a cut UTF-8 sequence).");
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = header?.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createApiServer(options: ApiServerOptions): Server {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error) => sendError(res, error));
  });
  // Long-poll acquires may wait far longer than Node's default 300 s request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.on("clientError", answerClientError);
  return server;
}

async function handle(options: ApiServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  noteRequest(req.socket);
  if (!isLoopbackHost(req.headers.host)) {
    throw new ServiceError("forbidden_host", `Host ${req.headers.host ?? "(none)"} is not a loopback name; use 127.0.0.1 or localhost.`);
  }
  const url = parseTarget(req.url);
  const method = req.method ?? "GET";

  if (url.pathname === "/health" && method === "GET") {
    const service = options.service();
    if (!service) throw unavailable();
    const redis = service.redisState();
    sendJson(res, 200, { ok: true, version: options.version, ...(redis ? { redis } : {}) });
    return;
  }

  const rawPath = rawPathOf(req.url ?? "/", url);
  const candidates = match(rawPath);
  const noEndpoint = () => new ServiceError("not_found", `No such endpoint: ${method} ${url.pathname}. See SPEC §3 for the API.`);
  // Under an API segment (`/concurrency/status/`, `/connections`) the answer is the API's own
  // 404 (after the token), never the window's page served as if it were one.
  const underApi = API_SEGMENTS.has(rawPath.split("/")[1] ?? "");
  if (candidates.length === 0 && !underApi) {
    if (options.staticDir && (method === "GET" || method === "HEAD") && (await serveStatic(options.staticDir, url.pathname, req, res))) {
      return;
    }
    throw noEndpoint();
  }
  // Static files are exempt: a page may embed them, but only the window served from this very
  // address may drive the API (a token alone does not make a foreign page trusted).
  if (!isOwnOrigin(req.headers.origin, req.headers.host)) {
    throw new ServiceError(
      "forbidden_origin",
      `Origin ${req.headers.origin} may not use the API; only the window served at http://${req.headers.host} may.`,
    );
  }

  if (!tokenMatches(req.headers.authorization, options.token)) {
    throw new ServiceError(
      "unauthorized",
      "Missing or wrong token: send Authorization: Bearer <token> (the token is in api-token in the data folder, or HEADROOM_TOKEN).",
    );
  }

  if (candidates.length === 0) throw noEndpoint();
  const chosen = candidates.find(({ route }) => route.method === method);
  if (!chosen) {
    const allowed = candidates.map(({ route }) => route.method).join(", ");
    res.setHeader("allow", allowed);
    throw new ServiceError("method_not_allowed", `${method} is not allowed on ${url.pathname}; use ${allowed}.`);
  }
  const service = options.service();
  if (!service) throw unavailable();

  const result = await chosen.route.handler({
    service,
    params: chosen.params,
    query: Object.fromEntries(url.searchParams),
    req,
    res,
    body: () => readJsonBody(req),
  });
  if (result instanceof StatusReply) sendJson(res, result.status, result.body);
  else if (result !== undefined) sendJson(res, 200, result);
}

function unavailable(): ServiceError {
  return new ServiceError("unavailable", "Headroom is starting or shutting down; retry in a moment.");
}
