// What the Electron preload exposes on `window.headroom`: one method per whitelisted channel of
// the operations table, plus one subscription per pushed topic (never a raw ipcRenderer).
// Derived from the table, so the preload, the main-process handlers and the renderer's bridge
// cannot drift apart.
import type { InvokeArgs, InvokeChannel, InvokeResult, PushMap, PushTopic, Result } from "./contract";

/**
 * The preload's whitelist, spelled out so the sandboxed preload bundles no schema code (2 KB
 * instead of 126 KB with TypeBox). The compiler holds it to the table's `window` rows both
 * ways: a missing or an extra channel does not build.
 */
export const PRELOAD_CHANNELS = [
  "host:info",
  "status:get",
  "limit:set",
  "cooldown:set",
  "provider:get",
  "provider:configure",
  "provider:remove",
  "leases:get",
  "provider:resume",
  "notice:dismiss",
  "notice:accept",
  "lease:release",
  "routes:get",
  "routes:settings",
  "route:reset",
  "history:get",
  "series:get",
  "agents:get",
  "usage:get",
  "presets:get",
  "connections:get",
  "connection:connect",
  "connection:disconnect",
] as const satisfies readonly InvokeChannel[];
type NotInPreload = Exclude<InvokeChannel, (typeof PRELOAD_CHANNELS)[number]>;
const preloadIsComplete: [NotInPreload] extends [never] ? true : NotInPreload = true;
void preloadIsComplete;

export type DesktopCalls = {
  [C in InvokeChannel]: (...input: InvokeArgs<C>) => Promise<Result<InvokeResult<C>>>;
};

export interface DesktopApi {
  /** Calls one whitelisted channel ("limit:set", ...); anything else is refused in the preload. */
  readonly call: DesktopCalls;
  subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void): () => void;
}

/** The push channel name for a topic, main → renderer. */
export const pushChannel = (topic: PushTopic) => `push:${topic}` as const;
