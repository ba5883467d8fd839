// What the Electron preload exposes on `window.headroom`: one method per whitelisted channel of
// the operations table, plus one subscription per pushed topic (never a raw ipcRenderer).
// Derived from the table, so the preload, the main-process handlers and the renderer's bridge
// cannot drift apart.
import type { InvokeArgs, InvokeChannel, InvokeResult, PushMap, PushTopic, Result } from "./contract";

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
