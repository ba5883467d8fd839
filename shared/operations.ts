// Every operation of the loopback API and the window, one row each: HTTP method and path, the
// schemas of its path parameters and body, what it answers, the service method it calls and,
// for the window's whitelisted calls, its channel. The HTTP routes, the IPC channels, the
// preload's API, the window's bridges and the typed client are all derived from this table.
// A new operation: one row here, one service method, and the window's use of it.
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { UsageQuery, type AgentsView, type UsageView } from "./agents";
import { ConnectBody, ConnectParams, type ConnectAnswer, type ConnectionEntry, type Preset } from "./presets";
import {
  BreakerSettingsPatch,
  CooldownBody,
  LeaseParams,
  LimitBody,
  ProviderConfigPatch,
  ProviderParams,
  ReleaseBody,
  RouteKey,
  RouteOutcomeBody,
  RouteRunBody,
  SeriesQuery,
  WindowsBody,
} from "./schemas";
import type {
  BreakerSettings,
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  HistoryEvent,
  HostInfo,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RouteAdmission,
  RouteEntry,
  RoutesView,
  SeriesResponse,
} from "./types";

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE";

/** What an operation answers: a type only, carried by the row. */
export interface Returns<T> {
  readonly result?: T;
}
const returns = <T>(): Returns<T> => ({});

export interface OperationRow {
  readonly http: readonly [HttpMethod, string];
  readonly params?: TObject;
  /** Query parameters (`?minutes=5`): text over HTTP, converted to the schema's types first. */
  readonly query?: TObject;
  readonly body?: TSchema;
  readonly returns: Returns<unknown>;
  /** The service method it calls, with the parameters and the body merged into one input. */
  readonly service: string;
  /** The window's channel: only these operations are exposed by the preload. */
  readonly window?: string;
  /** Answered only once the lease journal holds the change (SPEC §1 durability). */
  readonly savesLeases?: true;
  /** The HTTP status of an answer that is not a plain 200 (the breaker's 409 refusal)... */
  readonly statusOf?: (result: never) => number;
  /** ...and those statuses, which a client reads as an answer rather than an error. */
  readonly answeredWith?: readonly number[];
}

export const operations = {
  // An addition to SPEC §3: the window needs the host's addresses to show agents their lines.
  hostInfo: { http: ["GET", "/host/info"], returns: returns<HostInfo>(), service: "hostInfo", window: "host:info" },
  status: { http: ["GET", "/concurrency/status"], returns: returns<ConcurrencyStatusResponse>(), service: "status", window: "status:get" },
  limits: { http: ["GET", "/concurrency/limits"], returns: returns<{ limits: LimitView[] }>(), service: "limits" },
  limit: { http: ["GET", "/concurrency/limits/:providerId"], params: ProviderParams, returns: returns<LimitView>(), service: "limit" },
  setLimit: {
    http: ["PUT", "/concurrency/limits/:providerId"], params: ProviderParams, body: LimitBody,
    returns: returns<LimitView>(), service: "setLimit", window: "limit:set",
  },
  cooldown: { http: ["GET", "/concurrency/cooldown/:providerId"], params: ProviderParams, returns: returns<CooldownView>(), service: "cooldown" },
  setCooldown: {
    http: ["PUT", "/concurrency/cooldown/:providerId"], params: ProviderParams, body: CooldownBody,
    returns: returns<CooldownView>(), service: "setCooldown", window: "cooldown:set",
  },
  provider: {
    http: ["GET", "/concurrency/providers/:providerId"], params: ProviderParams,
    returns: returns<ProviderConfigView>(), service: "providerConfig", window: "provider:get",
  },
  setProvider: {
    http: ["PUT", "/concurrency/providers/:providerId"], params: ProviderParams, body: ProviderConfigPatch,
    returns: returns<ProviderConfigView>(), service: "setProviderConfig", window: "provider:configure",
  },
  removeProvider: {
    http: ["DELETE", "/concurrency/providers/:providerId"], params: ProviderParams,
    returns: returns<{ removed: true }>(), service: "removeProvider", window: "provider:remove",
  },
  leases: {
    http: ["GET", "/concurrency/providers/:providerId/leases"], params: ProviderParams,
    returns: returns<LeasesView>(), service: "leases", window: "leases:get",
  },
  resume: {
    http: ["POST", "/concurrency/providers/:providerId/resume"], params: ProviderParams,
    returns: returns<ConcurrencyStatusEntry>(), service: "resume", window: "provider:resume",
  },
  // SPEC §10: windows a client read itself (Claude Code's status line); answers the provider's status.
  reportWindows: {
    http: ["POST", "/concurrency/providers/:providerId/windows"], params: ProviderParams, body: WindowsBody,
    returns: returns<ConcurrencyStatusEntry>(), service: "reportWindows",
  },
  dismissNotice: {
    http: ["POST", "/concurrency/notice/:providerId/dismiss"], params: ProviderParams,
    returns: returns<ConcurrencyStatusEntry>(), service: "dismissNotice", window: "notice:dismiss",
  },
  acceptNotice: {
    http: ["POST", "/concurrency/notice/:providerId/accept"], params: ProviderParams,
    returns: returns<ConcurrencyStatusEntry>(), service: "acceptNotice", window: "notice:accept",
  },
  heartbeat: {
    http: ["POST", "/concurrency/leases/:leaseId/heartbeat"], params: LeaseParams,
    returns: returns<{ leaseId: string; expiresAt?: number }>(), service: "heartbeat",
  },
  release: {
    http: ["POST", "/concurrency/leases/:leaseId/release"], params: LeaseParams, body: ReleaseBody,
    returns: returns<{ released: boolean }>(), service: "release", savesLeases: true,
  },
  releaseByHand: {
    http: ["DELETE", "/concurrency/leases/:leaseId"], params: LeaseParams,
    returns: returns<{ released: boolean }>(), service: "releaseByHand", window: "lease:release", savesLeases: true,
  },
  routes: { http: ["GET", "/routes"], returns: returns<RoutesView>(), service: "routes", window: "routes:get" },
  setRouteSettings: {
    http: ["PUT", "/routes/settings"], body: BreakerSettingsPatch,
    returns: returns<BreakerSettings>(), service: "setRouteSettings", window: "routes:settings",
  },
  routeAdmit: {
    http: ["POST", "/routes/admit"], body: RouteRunBody, returns: returns<RouteAdmission>(), service: "routeAdmit",
    statusOf: (result: RouteAdmission) => (result.admitted ? 200 : 409), answeredWith: [409],
  },
  routeOutcome: { http: ["POST", "/routes/outcome"], body: RouteOutcomeBody, returns: returns<RouteEntry>(), service: "routeOutcome" },
  routeRelease: { http: ["POST", "/routes/release"], body: RouteRunBody, returns: returns<RouteEntry>(), service: "routeRelease" },
  routeReset: { http: ["POST", "/routes/reset"], body: RouteKey, returns: returns<RouteEntry>(), service: "routeReset", window: "route:reset" },
  history: { http: ["GET", "/history"], returns: returns<{ events: HistoryEvent[] }>(), service: "historyEvents", window: "history:get" },
  series: { http: ["GET", "/series"], query: SeriesQuery, returns: returns<SeriesResponse>(), service: "series", window: "series:get" },
  agents: { http: ["GET", "/agents"], returns: returns<AgentsView>(), service: "agents", window: "agents:get" },
  usage: { http: ["GET", "/usage"], query: UsageQuery, returns: returns<UsageView>(), service: "usage", window: "usage:get" },
  // SPEC §10: presets and connecting agents.
  presets: { http: ["GET", "/presets"], returns: returns<{ presets: Preset[] }>(), service: "presets", window: "presets:get" },
  connections: {
    http: ["GET", "/connections"], returns: returns<{ connections: ConnectionEntry[] }>(), service: "connections", window: "connections:get",
  },
  connectAgent: {
    http: ["POST", "/connections/:agent"], params: ConnectParams, body: ConnectBody,
    returns: returns<ConnectAnswer>(), service: "connectAgent", window: "connection:connect",
  },
  disconnectAgent: {
    http: ["DELETE", "/connections/:agent"], params: ConnectParams,
    returns: returns<ConnectAnswer>(), service: "disconnectAgent", window: "connection:disconnect",
  },
} as const satisfies Record<string, OperationRow>;

/**
 * SPEC §3: the first path segments that belong to the API. A path under one of them that names
 * no endpoint is 404 `not_found` JSON (401 first without the token), never the window's page.
 */
export const API_SEGMENTS: ReadonlySet<string> = new Set([
  "health", "concurrency", "routes", "agents", "usage", "events", "series", "metrics", "history", "host", "presets", "connections",
]);

type Operations = typeof operations;
export type OperationName = keyof Operations;

type ParamsOf<R> = R extends { params: infer P extends TSchema } ? Static<P> : unknown;
type QueryOf<R> = R extends { query: infer Q extends TSchema } ? Static<Q> : unknown;
type BodyOf<R> = R extends { body: infer B extends TSchema } ? Static<B> : unknown;
type Merge<T> = { [K in keyof T]: T[K] };

/** One object: the path parameters, the query and the body together (`{ providerId, limit }`). */
export type InputOf<N extends OperationName> = Merge<ParamsOf<Operations[N]> & QueryOf<Operations[N]> & BodyOf<Operations[N]>>;
export type ResultOf<N extends OperationName> = Operations[N]["returns"] extends Returns<infer T> ? T : never;

/** Arguments of a call: none when the operation takes no input. */
export type ArgsOf<N extends OperationName> = keyof InputOf<N> extends never ? [] : [input: InputOf<N>];

/**
 * What the service must offer: each row's method, taking that row's input. It may answer with a
 * promise (a shared provider's route waits for Redis); every transport awaits it.
 */
export type OperationService = {
  [N in OperationName as Operations[N]["service"]]: (input: InputOf<N>) => ResultOf<N> | Promise<ResultOf<N>>;
};

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

// ── the window's whitelist ──────────────────────────────────────────────────

export type WindowOperation = {
  [N in OperationName]: Operations[N] extends { window: string } ? N : never;
}[OperationName];

export type WindowChannel = Operations[WindowOperation]["window"];

/** The operation behind each window channel ("limit:set" → "setLimit"). */
export type OperationOf<C extends WindowChannel> = {
  [N in WindowOperation]: Operations[N]["window"] extends C ? N : never;
}[WindowOperation];

export const WINDOW_OPERATIONS = OPERATION_NAMES.filter(
  (name): name is WindowOperation => "window" in operations[name],
);

/** The window's channels, in table order: what the preload exposes and ipcMain handles. */
export const INVOKE_CHANNELS: WindowChannel[] = WINDOW_OPERATIONS.map((name) => operations[name].window);

const operationByChannel = new Map<string, WindowOperation>(WINDOW_OPERATIONS.map((name) => [operations[name].window, name]));

/** The operation behind a window channel ("limit:set" → "setLimit"), for the bridges. */
export function operationOf<C extends WindowChannel>(channel: C): OperationOf<C> {
  // The map holds exactly the rows that declare each channel: the pairing OperationOf names.
  return operationByChannel.get(channel) as OperationOf<C>;
}

/** A row's path with its `:name` segments filled and its query appended, from its input. */
export function pathOf(row: OperationRow, input: Record<string, unknown>): string {
  const path = row.http[1].replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(input[name])));
  const query = new URLSearchParams();
  for (const name of row.query ? Object.keys(row.query.properties) : []) {
    if (input[name] !== undefined) query.set(name, String(input[name]));
  }
  const text = query.toString();
  return text === "" ? path : `${path}?${text}`;
}

/** The input keys that are not the body: path parameters and query parameters. */
export function keysOutsideBody(row: OperationRow): string[] {
  return [row.params, row.query].flatMap((schema) => (schema ? Object.keys(schema.properties) : []));
}
