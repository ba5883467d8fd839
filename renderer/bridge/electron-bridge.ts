// The Electron window's Bridge: one named preload method per message (shared/desktop-api.ts).
// IPC cannot drop while the window lives, so the connection is live from the start.
import type { Bridge, InvokeChannel, InvokeMap, PushMap, PushTopic, Result, SnapshotTopic } from "../../shared/contract";
import { DESKTOP_METHODS, DESKTOP_SUBSCRIPTIONS, type DesktopApi } from "../../shared/desktop-api";

export function createElectronBridge(api: DesktopApi): Bridge {
  function invoke<C extends InvokeChannel>(
    channel: C,
    ...request: InvokeMap[C]["request"] extends void ? [] : [InvokeMap[C]["request"]]
  ): Promise<Result<InvokeMap[C]["response"]>> {
    const method = api[DESKTOP_METHODS[channel]] as (request?: InvokeMap[C]["request"]) => Promise<Result<InvokeMap[C]["response"]>>;
    // The Bridge promises a Result: a call that fails in transit (a handler not registered yet
    // while the app starts) becomes one instead of a rejection nobody catches.
    return method(request[0]).catch((error: unknown) => ({
      ok: false as const,
      code: "internal",
      message: `Headroom's main process did not answer (${error instanceof Error ? error.message : String(error)}).`,
    }));
  }

  /** The getter whose answer stands in for a topic's first push (`history-added` has none). */
  const firstSnapshot: { [T in SnapshotTopic]: () => Promise<Result<PushMap[T]>> } = {
    status: () => invoke("status:get"),
    routes: () => invoke("routes:get"),
    history: () => invoke("history:get"),
  };

  return {
    invoke,
    subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void) {
      let pushed = false;
      const on = api[DESKTOP_SUBSCRIPTIONS[topic]] as (listener: (snapshot: PushMap[T]) => void) => () => void;
      const unsubscribe = on((snapshot) => {
        pushed = true;
        listener(snapshot);
      });
      // Main pushes on change only; the first picture comes from the getter, unless a push
      // already brought something newer.
      if (topic !== "history-added") {
        void (firstSnapshot[topic as SnapshotTopic] as () => Promise<Result<PushMap[T]>>)().then((result) => {
          if (result.ok && !pushed) listener(result.value);
        });
      }
      return unsubscribe;
    },
    onConnection(listener) {
      listener("live");
      return () => undefined;
    },
  };
}
