// One typed contract for the window, whichever transport carries it: Electron IPC (preload +
// ipcMain) or HTTP + SSE against `npm run serve`. A renamed channel breaks the build, not the app.
import type {
  BreakerSettings,
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  HistoryEvent,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RouteEntry,
  RouteKey,
  RoutesView,
  SeriesResponse,
} from "./types";
import type { ProviderConfigPatch } from "./validate";

/** Errors cross the boundary as data with a message a person can act on, never as thrown objects. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/** Request and response of every window → main call. */
export interface InvokeMap {
  "status:get": { request: void; response: ConcurrencyStatusResponse };
  "limit:set": { request: { providerId: string; limit: number }; response: LimitView };
  "cooldown:set": { request: { providerId: string; cooldownMs: number }; response: CooldownView };
  "provider:get": { request: { providerId: string }; response: ProviderConfigView };
  "provider:configure": { request: { providerId: string; patch: ProviderConfigPatch }; response: ProviderConfigView };
  "provider:remove": { request: { providerId: string }; response: { removed: true } };
  "provider:resume": { request: { providerId: string }; response: ConcurrencyStatusEntry };
  "notice:dismiss": { request: { providerId: string }; response: ConcurrencyStatusEntry };
  "leases:get": { request: { providerId: string }; response: LeasesView };
  "lease:release": { request: { leaseId: string }; response: { released: boolean } };
  "routes:get": { request: void; response: RoutesView };
  "routes:settings": { request: Partial<BreakerSettings>; response: BreakerSettings };
  "route:reset": { request: RouteKey; response: RouteEntry };
  "history:get": { request: void; response: { events: HistoryEvent[] } };
  "host:info": { request: void; response: HostInfo };
  "series:get": { request: { minutes: number }; response: SeriesResponse };
}

export type InvokeChannel = keyof InvokeMap;

/** What the window needs to show agents how to connect. */
export interface HostInfo {
  apiUrl: string;
  proxyUrl?: string;
  version: string;
}

/** Snapshots pushed main → window, coalesced to at most 20 a second per topic. */
export interface PushMap {
  status: ConcurrencyStatusResponse;
  routes: RoutesView;
  history: { events: HistoryEvent[] };
}

export type PushTopic = keyof PushMap;

export const INVOKE_CHANNELS = [
  "status:get",
  "limit:set",
  "cooldown:set",
  "provider:get",
  "provider:configure",
  "provider:remove",
  "provider:resume",
  "notice:dismiss",
  "leases:get",
  "lease:release",
  "routes:get",
  "routes:settings",
  "route:reset",
  "history:get",
  "host:info",
  "series:get",
] as const satisfies readonly InvokeChannel[];

export const PUSH_TOPICS = ["status", "routes", "history"] as const satisfies readonly PushTopic[];

/**
 * Connection state the window shows (the browser bridge reconnects after a host restart;
 * "unauthorized" is the browser's 401: a token that does not match, so retrying cannot help).
 */
export type ConnectionState = "connecting" | "live" | "reconnecting" | "unauthorized";

/** The only thing the renderer talks to; Electron's preload and the browser both implement it. */
export interface Bridge {
  invoke<C extends InvokeChannel>(
    channel: C,
    ...request: InvokeMap[C]["request"] extends void ? [] : [InvokeMap[C]["request"]]
  ): Promise<Result<InvokeMap[C]["response"]>>;
  subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
