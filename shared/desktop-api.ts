// What the Electron preload exposes on `window.headroom`: one named method per message and
// one subscription per pushed topic (never a raw ipcRenderer). Derived from the contract, so
// the preload, the main-process handlers and the renderer's bridge cannot drift apart.
import type { InvokeChannel, InvokeMap, PushMap, PushTopic, Result } from "./contract";

export const DESKTOP_METHODS = {
  "status:get": "getStatus",
  "limit:set": "setLimit",
  "cooldown:set": "setCooldown",
  "provider:get": "getProvider",
  "provider:configure": "configureProvider",
  "provider:remove": "removeProvider",
  "provider:resume": "resumeProvider",
  "notice:dismiss": "dismissNotice",
  "leases:get": "getLeases",
  "lease:release": "releaseLease",
  "routes:get": "getRoutes",
  "routes:settings": "setRouteSettings",
  "route:reset": "resetRoute",
  "history:get": "getHistory",
  "host:info": "getHostInfo",
  "series:get": "getSeries",
} as const satisfies Record<InvokeChannel, string>;

export const DESKTOP_SUBSCRIPTIONS = {
  status: "onStatus",
  routes: "onRoutes",
  history: "onHistory",
} as const satisfies Record<PushTopic, string>;

/** The push channel name for a topic, main → renderer. */
export const pushChannel = (topic: PushTopic) => `push:${topic}` as const;

type MethodOf<C extends InvokeChannel> = InvokeMap[C]["request"] extends void
  ? () => Promise<Result<InvokeMap[C]["response"]>>
  : (request: InvokeMap[C]["request"]) => Promise<Result<InvokeMap[C]["response"]>>;

export type DesktopApi = {
  [C in InvokeChannel as (typeof DESKTOP_METHODS)[C]]: MethodOf<C>;
} & {
  [T in PushTopic as (typeof DESKTOP_SUBSCRIPTIONS)[T]]: (listener: (snapshot: PushMap[T]) => void) => () => void;
};
