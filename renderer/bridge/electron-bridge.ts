// The Electron window's Bridge over the preload's `window.headroom` (shared/desktop-api.ts).
// IPC cannot drop while the window lives, so the connection is live from the start.
import type { Bridge, InvokeArgs, InvokeChannel, InvokeResult, PushMap, PushTopic, Result, SnapshotTopic } from "../../shared/contract";
import type { DesktopApi } from "../../shared/desktop-api";

export function createElectronBridge(api: DesktopApi): Bridge {
  function invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<Result<InvokeResult<C>>> {
    const method: (...input: InvokeArgs<C>) => Promise<Result<InvokeResult<C>>> = api.call[channel];
    // The Bridge promises a Result: a call that fails in transit (a handler not registered yet
    // while the app starts) becomes one instead of a rejection nobody catches.
    return method(...input).catch((error: unknown) => ({
      ok: false as const,
      code: "internal" as const,
      message: `Headroom's main process did not answer (${error instanceof Error ? error.message : String(error)}).`,
    }));
  }

  /** The getter whose answer stands in for a topic's first push (`history-added` has none). */
  const firstSnapshot: { [T in SnapshotTopic]: () => Promise<Result<PushMap[T]>> } = {
    status: () => invoke("status:get"),
    routes: () => invoke("routes:get"),
    agents: () => invoke("agents:get"),
    history: () => invoke("history:get"),
  };

  return {
    invoke,
    subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void) {
      let pushed = false;
      const unsubscribe = api.subscribe(topic, (snapshot) => {
        pushed = true;
        listener(snapshot);
      });
      // Main pushes on change only; the first picture comes from the getter, unless a push
      // already brought something newer.
      if (topic !== "history-added") {
        // The getter of a snapshot topic answers that topic's type (firstSnapshot's own key map).
        const first = firstSnapshot[topic as SnapshotTopic] as () => Promise<Result<PushMap[T]>>;
        void first().then((result) => {
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
