// The browser's Bridge: invokes through the typed API client, pushes through one event
// stream. Used when the window is served by `npm run serve` instead of Electron.
import { ApiError, createApiClient } from "../../shared/api-client";
import type { Bridge, ConnectionState, InvokeArgs, InvokeChannel, InvokeResult, PushMap, PushTopic, Result } from "../../shared/contract";
import { operationOf } from "../../shared/operations";
import { openEventStream } from "./event-stream";

export interface HttpBridgeOptions {
  baseUrl: string;
  /** undefined when the window was opened without its token: nothing can work. */
  token: string | undefined;
  fetch?: typeof fetch;
}

export function createHttpBridge(options: HttpBridgeOptions): Bridge & { close(): void } {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const client = createApiClient({ baseUrl: options.baseUrl, token: options.token ?? "", fetch: doFetch });
  const pushListeners = new Map<PushTopic, Set<(snapshot: never) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = options.token ? "connecting" : "unauthorized";

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of connectionListeners) listener(next);
  };

  const stream = options.token
    ? openEventStream({
        url: `${client.baseUrl}/events`,
        token: options.token,
        fetch: doFetch,
        onState: setState,
        onSnapshot: (topic, snapshot) => {
          for (const listener of pushListeners.get(topic) ?? []) listener(snapshot as never);
        },
      })
    : undefined;

  // Each window channel is the operation its row names, called through the one typed client.
  async function invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<Result<InvokeResult<C>>> {
    try {
      return { ok: true, value: await client.invoke(operationOf(channel), ...input) };
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status === 401) setState("unauthorized");
        return { ok: false, code: error.code, message: error.message };
      }
      return { ok: false, code: "internal", message: `Headroom's window hit an unexpected error: ${(error as Error).message}` };
    }
  }

  return {
    invoke,
    subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void) {
      const set = pushListeners.get(topic) ?? new Set();
      pushListeners.set(topic, set);
      set.add(listener as (snapshot: never) => void);
      return () => set.delete(listener as (snapshot: never) => void);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(state);
      return () => connectionListeners.delete(listener);
    },
    close: () => stream?.close(),
  };
}
