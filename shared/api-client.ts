// The one typed client of the loopback API (SPEC §3), used by the CLI, the browser window and
// the tests, so no transport hand-rolls requests. Runs wherever `fetch` exists.
import type {
  Admission,
  BreakerSettings,
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  ErrorCode,
  HistoryEvent,
  LeaseOutcome,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RouteEntry,
  RouteKey,
  RouteOutcome,
  RouteRefusal,
  RoutesView,
  SeriesResponse,
} from "./types";
import type { HostInfo } from "./contract";
import type { AcquireRequest, ProviderConfigPatch } from "./validate";

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

const seg = encodeURIComponent;

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal, accept: number[] = []): Promise<T> {
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

  return {
    baseUrl: base,
    health: () => call<{ ok: true; version: string }>("GET", "/health"),
    hostInfo: () => call<HostInfo>("GET", "/host/info"),
    status: () => call<ConcurrencyStatusResponse>("GET", "/concurrency/status"),
    limits: () => call<{ limits: LimitView[] }>("GET", "/concurrency/limits"),
    limit: (id: string) => call<LimitView>("GET", `/concurrency/limits/${seg(id)}`),
    setLimit: (id: string, limit: number) => call<LimitView>("PUT", `/concurrency/limits/${seg(id)}`, { limit }),
    cooldown: (id: string) => call<CooldownView>("GET", `/concurrency/cooldown/${seg(id)}`),
    setCooldown: (id: string, cooldownMs: number) =>
      call<CooldownView>("PUT", `/concurrency/cooldown/${seg(id)}`, { cooldownMs }),
    provider: (id: string) => call<ProviderConfigView>("GET", `/concurrency/providers/${seg(id)}`),
    setProvider: (id: string, patch: ProviderConfigPatch) =>
      call<ProviderConfigView>("PUT", `/concurrency/providers/${seg(id)}`, patch),
    removeProvider: (id: string) => call<{ removed: true }>("DELETE", `/concurrency/providers/${seg(id)}`),
    leases: (id: string) => call<LeasesView>("GET", `/concurrency/providers/${seg(id)}/leases`),
    resume: (id: string) => call<ConcurrencyStatusEntry>("POST", `/concurrency/providers/${seg(id)}/resume`),
    dismissNotice: (id: string) => call<ConcurrencyStatusEntry>("POST", `/concurrency/notice/${seg(id)}/dismiss`),
    acquire: (request: AcquireRequest, signal?: AbortSignal) =>
      call<Admission>("POST", "/concurrency/acquire", request, signal),
    heartbeat: (leaseId: string) =>
      call<{ leaseId: string; expiresAt?: number }>("POST", `/concurrency/leases/${seg(leaseId)}/heartbeat`),
    release: (leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number) =>
      call<{ released: boolean }>("POST", `/concurrency/leases/${seg(leaseId)}/release`, {
        outcome,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      }),
    releaseByHand: (leaseId: string) => call<{ released: boolean }>("DELETE", `/concurrency/leases/${seg(leaseId)}`),
    routes: () => call<RoutesView>("GET", "/routes"),
    setRouteSettings: (patch: Partial<BreakerSettings>) => call<BreakerSettings>("PUT", "/routes/settings", patch),
    routeAdmit: (route: RouteKey, runId: string) =>
      call<{ admitted: true } | { admitted: false; block: RouteRefusal }>("POST", "/routes/admit", { ...route, runId }, undefined, [409]),
    routeOutcome: (route: RouteKey, runId: string, outcome: RouteOutcome, reason?: string) =>
      call<RouteEntry>("POST", "/routes/outcome", { ...route, runId, outcome, ...(reason === undefined ? {} : { reason }) }),
    routeRelease: (route: RouteKey, runId: string) => call<RouteEntry>("POST", "/routes/release", { ...route, runId }),
    routeReset: (route: RouteKey) => call<RouteEntry>("POST", "/routes/reset", route),
    history: () => call<{ events: HistoryEvent[] }>("GET", "/history"),
    series: (minutes?: number) => call<SeriesResponse>("GET", minutes === undefined ? "/series" : `/series?minutes=${minutes}`),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
