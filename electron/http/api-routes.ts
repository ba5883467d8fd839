// The HTTP API of SPEC §3, derived from the operations table (shared/operations.ts): each row
// becomes a route that reads the body when the row has one and runs the row. Only the
// transports that are not request → answer stay here: the acquire long poll and /events.
import type { IncomingMessage, ServerResponse } from "node:http";
import { check } from "../../shared/check";
import { OPERATION_NAMES, operations, type HttpMethod, type OperationName } from "../../shared/operations";
import { AcquireBody } from "../../shared/schemas";
import type { HeadroomService } from "../service/headroom-service";
import { runOperation } from "../service/run-operation";
import { valid } from "../service/service-error";
import { acquireLongPoll } from "./acquire-long-poll";
import { openEventStream } from "./event-stream";

interface RouteContext {
  service: HeadroomService;
  params: Record<string, string>;
  query: Record<string, string>;
  req: IncomingMessage;
  res: ServerResponse;
  body: () => Promise<unknown>;
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
  method: HttpMethod;
  pattern: string;
  handler: Handler;
}

function operationRoute(name: OperationName): ApiRoute {
  const row = operations[name];
  const [method, pattern] = row.http;
  return {
    method,
    pattern,
    handler: async (c) => {
      const body = "body" in row ? await c.body() : undefined;
      const result = await runOperation(c.service, name, { params: c.params, query: c.query, body });
      if ("savesLeases" in row) await c.service.leasesSaved(); // SPEC §1: on disk before the answer
      if (!("statusOf" in row)) return result;
      const status = row.statusOf(result as never);
      return status === 200 ? result : new StatusReply(status, result);
    },
  };
}

export const API_ROUTES: ApiRoute[] = [
  ...OPERATION_NAMES.map(operationRoute),
  {
    method: "POST",
    pattern: "/concurrency/acquire",
    handler: async (c) => acquireLongPoll(c.service, valid(check(AcquireBody, await c.body())), c.req, c.res),
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
