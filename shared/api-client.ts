// The one typed client of the loopback API (SPEC §3), used by the CLI, the browser window and
// the tests, so no transport hand-rolls requests. Every operation of the table is callable as
// `invoke(name, input)`: method, path and body come from its row. Runs wherever `fetch` exists.
import type { Admission, ErrorCode, LeaseOutcome, RedisState, RouteKey, RouteOutcome } from "./types";
import { keysOutsideBody, operations, pathOf, type ArgsOf, type InputOf, type OperationName, type OperationRow, type ResultOf } from "./operations";
import type { AcquireRequest, BreakerSettings, ProviderConfigPatch, ReportedWindow } from "./schemas";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network" | "internal",
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal, accept: readonly number[] = []): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      throw new ApiError(0, "network", `Cannot reach Headroom at ${base} (${(error as Error).message}).`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiError(response.status, "internal", `${base} answered something other than Headroom's API (HTTP ${response.status}); check the address.`);
    }
    if (response.ok || accept.includes(response.status)) return parsed as T;
    const error = (parsed as { error?: { code?: ErrorCode; message?: string } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? "internal", error?.message ?? `HTTP ${response.status}`);
  }

  /** Any operation of the table: the row's path parameters fill its path, the rest is its body. */
  function invoke<N extends OperationName>(name: N, ...args: ArgsOf<N>): Promise<ResultOf<N>> {
    const row: OperationRow = operations[name];
    const input: Record<string, unknown> = { ...args[0] };
    for (const key of keysOutsideBody(row)) delete input[key];
    const body = row.body ? input : undefined;
    return call<ResultOf<N>>(row.http[0], pathOf(row, { ...args[0] }), body, undefined, row.answeredWith);
  }

  // Shorthands for the CLI and the tests; each is the table's operation under its own name.
  return {
    baseUrl: base,
    invoke,
    health: () => call<{ ok: true; version: string; redis?: RedisState }>("GET", "/health"),
    /** A long poll (SPEC §3), not a row of the table: it may wait for as long as it is let. */
    acquire: (request: AcquireRequest, signal?: AbortSignal) => call<Admission>("POST", "/concurrency/acquire", request, signal),
    hostInfo: () => invoke("hostInfo"),
    status: () => invoke("status"),
    limits: () => invoke("limits"),
    limit: (providerId: string) => invoke("limit", { providerId }),
    setLimit: (providerId: string, limit: number) => invoke("setLimit", { providerId, limit }),
    cooldown: (providerId: string) => invoke("cooldown", { providerId }),
    setCooldown: (providerId: string, cooldownMs: number) => invoke("setCooldown", { providerId, cooldownMs }),
    provider: (providerId: string) => invoke("provider", { providerId }),
    setProvider: (providerId: string, patch: ProviderConfigPatch) => invoke("setProvider", { providerId, ...patch }),
    removeProvider: (providerId: string) => invoke("removeProvider", { providerId }),
    leases: (providerId: string) => invoke("leases", { providerId }),
    resume: (providerId: string) => invoke("resume", { providerId }),
    reportWindows: (providerId: string, windows: ReportedWindow[]) => invoke("reportWindows", { providerId, windows }),
    dismissNotice: (providerId: string) => invoke("dismissNotice", { providerId }),
    acceptNotice: (providerId: string) => invoke("acceptNotice", { providerId }),
    heartbeat: (leaseId: string) => invoke("heartbeat", { leaseId }),
    release: (leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number) =>
      invoke("release", { leaseId, outcome, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }),
    releaseByHand: (leaseId: string) => invoke("releaseByHand", { leaseId }),
    routes: () => invoke("routes"),
    setRouteSettings: (patch: Partial<BreakerSettings>) => invoke("setRouteSettings", patch),
    routeAdmit: (route: RouteKey, runId: string) => invoke("routeAdmit", { ...route, runId }),
    routeOutcome: (route: RouteKey, runId: string, outcome: RouteOutcome, reason?: string) =>
      invoke("routeOutcome", { ...route, runId, outcome, ...(reason === undefined ? {} : { reason }) }),
    routeRelease: (route: RouteKey, runId: string) => invoke("routeRelease", { ...route, runId }),
    routeReset: (route: RouteKey) => invoke("routeReset", route),
    history: () => invoke("history"),
    series: (minutes?: number) => invoke("series", minutes === undefined ? {} : { minutes }),
    agents: () => invoke("agents"),
    usage: (query: InputOf<"usage"> = {}) => invoke("usage", query),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
