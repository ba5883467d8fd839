// The table of SPEC §3: each row parses with shared/ validators and calls the service. No rules here.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  checkAcquireBody,
  checkBreakerSettingsBody,
  checkCooldownBody,
  checkLeaseId,
  checkLimitBody,
  checkProviderConfigBody,
  checkProviderId,
  checkReleaseBody,
  checkRouteKeyBody,
  checkRouteOutcomeBody,
  checkRouteRunBody,
  checkSeriesMinutes,
} from "../../shared/validate";
import type { HostInfo } from "../../shared/contract";
import type { HeadroomService } from "../service/headroom-service";
import { valid } from "../service/service-error";
import { acquireLongPoll } from "./acquire-long-poll";
import { openEventStream } from "./event-stream";

export interface RouteContext {
  service: HeadroomService;
  params: Record<string, string>;
  req: IncomingMessage;
  res: ServerResponse;
  body: () => Promise<unknown>;
  hostInfo: () => HostInfo;
}

/** A reply other than 200 (the breaker's 409 refusal). */
export class StatusReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A handler returns the JSON to send with 200, or `undefined` when it answered by itself. */
type Handler = (ctx: RouteContext) => unknown | Promise<unknown>;

export interface ApiRoute {
  method: "GET" | "PUT" | "POST" | "DELETE";
  pattern: string;
  handler: Handler;
}

const provider = (ctx: RouteContext) => valid(checkProviderId(ctx.params.providerId));
const lease = (ctx: RouteContext) => valid(checkLeaseId(ctx.params.leaseId));

export const API_ROUTES: ApiRoute[] = [
  // An addition to SPEC §3: the window needs the host's addresses to show agents their lines.
  { method: "GET", pattern: "/host/info", handler: (c) => c.hostInfo() },
  { method: "GET", pattern: "/concurrency/status", handler: ({ service }) => service.status() },
  { method: "GET", pattern: "/concurrency/limits", handler: ({ service }) => service.limits() },
  { method: "GET", pattern: "/concurrency/limits/:providerId", handler: (c) => c.service.limit(provider(c)) },
  {
    method: "PUT",
    pattern: "/concurrency/limits/:providerId",
    handler: async (c) => {
      const id = provider(c);
      return c.service.setLimit(id, valid(checkLimitBody(await c.body())).limit);
    },
  },
  { method: "GET", pattern: "/concurrency/cooldown/:providerId", handler: (c) => c.service.cooldown(provider(c)) },
  {
    method: "PUT",
    pattern: "/concurrency/cooldown/:providerId",
    handler: async (c) => {
      const id = provider(c);
      return c.service.setCooldown(id, valid(checkCooldownBody(await c.body())).cooldownMs);
    },
  },
  { method: "GET", pattern: "/concurrency/providers/:providerId", handler: (c) => c.service.providerConfig(provider(c)) },
  {
    method: "PUT",
    pattern: "/concurrency/providers/:providerId",
    handler: async (c) => {
      const id = provider(c);
      return c.service.setProviderConfig(id, valid(checkProviderConfigBody(await c.body())));
    },
  },
  { method: "DELETE", pattern: "/concurrency/providers/:providerId", handler: (c) => c.service.removeProvider(provider(c)) },
  { method: "GET", pattern: "/concurrency/providers/:providerId/leases", handler: (c) => c.service.leases(provider(c)) },
  { method: "POST", pattern: "/concurrency/providers/:providerId/resume", handler: (c) => c.service.resume(provider(c)) },
  { method: "POST", pattern: "/concurrency/notice/:providerId/dismiss", handler: (c) => c.service.dismissNotice(provider(c)) },
  {
    method: "POST",
    pattern: "/concurrency/acquire",
    handler: async (c) => acquireLongPoll(c.service, valid(checkAcquireBody(await c.body())), c.req, c.res),
  },
  { method: "POST", pattern: "/concurrency/leases/:leaseId/heartbeat", handler: (c) => c.service.heartbeat(lease(c)) },
  {
    method: "POST",
    pattern: "/concurrency/leases/:leaseId/release",
    handler: async (c) => {
      const id = lease(c);
      const body = valid(checkReleaseBody(await c.body()));
      return c.service.release(id, body.outcome, body.retryAfterMs);
    },
  },
  { method: "DELETE", pattern: "/concurrency/leases/:leaseId", handler: (c) => c.service.releaseByHand(lease(c)) },
  { method: "GET", pattern: "/routes", handler: ({ service }) => service.routes() },
  {
    method: "PUT",
    pattern: "/routes/settings",
    handler: async (c) => c.service.setRouteSettings(valid(checkBreakerSettingsBody(await c.body()))),
  },
  {
    method: "POST",
    pattern: "/routes/admit",
    handler: async (c) => {
      const { runId, ...route } = valid(checkRouteRunBody(await c.body()));
      const result = c.service.routeAdmit(route, runId);
      return result.admitted ? result : new StatusReply(409, result);
    },
  },
  {
    method: "POST",
    pattern: "/routes/outcome",
    handler: async (c) => {
      const { runId, outcome, reason, ...route } = valid(checkRouteOutcomeBody(await c.body()));
      return c.service.routeOutcome(route, runId, outcome, reason);
    },
  },
  {
    method: "POST",
    pattern: "/routes/release",
    handler: async (c) => {
      const { runId, ...route } = valid(checkRouteRunBody(await c.body()));
      return c.service.routeRelease(route, runId);
    },
  },
  {
    method: "POST",
    pattern: "/routes/reset",
    handler: async (c) => c.service.routeReset(valid(checkRouteKeyBody(await c.body()))),
  },
  { method: "GET", pattern: "/history", handler: ({ service }) => service.historyEvents() },
  {
    method: "GET",
    pattern: "/series",
    handler: (c) => c.service.series(valid(checkSeriesMinutes(new URL(c.req.url ?? "/", "http://host").searchParams.get("minutes")))),
  },
  {
    method: "GET",
    pattern: "/metrics",
    handler: async ({ service, res }) => {
      const { contentType, text } = await service.metrics();
      res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
      res.end(text);
      return undefined;
    },
  },
  {
    method: "GET",
    pattern: "/events",
    handler: (c) => {
      openEventStream(c.service, c.req, c.res);
      return undefined;
    },
  },
];

