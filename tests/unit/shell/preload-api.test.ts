import { EventEmitter } from "node:events";
import { describe, expect, test } from "vitest";
import { INVOKE_CHANNELS, PUSH_TOPICS } from "../../../shared/contract";
import { DESKTOP_METHODS, DESKTOP_SUBSCRIPTIONS, pushChannel } from "../../../shared/desktop-api";
import { buildDesktopApi, ipcTransport, type IpcRendererLike } from "../../../electron/ipc/preload-api";

/** An ipcRenderer stand-in: invoke records, on/removeListener are a real EventEmitter's. */
function fakeIpcRenderer() {
  const emitter = new EventEmitter();
  const invoked: [string, unknown][] = [];
  const ipc: IpcRendererLike & { emitter: EventEmitter } = {
    emitter,
    invoke: (channel, ...args) => {
      invoked.push([channel, args[0]]);
      return Promise.resolve({ ok: true, value: channel });
    },
    on: (channel, listener) => emitter.on(channel, listener),
    removeListener: (channel, listener) => emitter.removeListener(channel, listener),
  };
  return { ipc, invoked };
}

describe("window.headroom", () => {
  test("has exactly one method per channel and one subscription per topic, nothing else", () => {
    const api = buildDesktopApi(ipcTransport(fakeIpcRenderer().ipc));
    const expected = [...Object.values(DESKTOP_METHODS), ...Object.values(DESKTOP_SUBSCRIPTIONS)].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    expect(new Set(Object.values(DESKTOP_METHODS)).size).toBe(INVOKE_CHANNELS.length);
    expect(Object.values(api).every((member) => typeof member === "function")).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
  });

  test("each method invokes its own channel with the request as given", async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const api = buildDesktopApi(ipcTransport(ipc)) as unknown as Record<string, (request?: unknown) => Promise<unknown>>;
    for (const channel of INVOKE_CHANNELS) {
      const request = { marker: channel };
      await expect(api[DESKTOP_METHODS[channel]]!(request)).resolves.toEqual({ ok: true, value: channel });
    }
    expect(invoked).toEqual(INVOKE_CHANNELS.map((channel) => [channel, { marker: channel }]));
  });

  test("subscriptions get the payload only (never the IPC event) and unsubscribe exactly their listener", () => {
    const { ipc } = fakeIpcRenderer();
    const api = buildDesktopApi(ipcTransport(ipc));
    for (const topic of PUSH_TOPICS) {
      const subscribe = api[DESKTOP_SUBSCRIPTIONS[topic]] as (listener: (snapshot: unknown) => void) => () => void;
      const first: unknown[][] = [];
      const second: unknown[][] = [];
      const stopFirst = subscribe((...args) => first.push(args));
      subscribe((...args) => second.push(args));
      const event = { sender: ipc };
      ipc.emitter.emit(pushChannel(topic), event, { n: 1 });
      stopFirst();
      stopFirst(); // a second call is harmless
      ipc.emitter.emit(pushChannel(topic), event, { n: 2 });
      expect(first).toEqual([[{ n: 1 }]]);
      expect(second).toEqual([[{ n: 1 }], [{ n: 2 }]]);
      expect(ipc.emitter.listenerCount(pushChannel(topic))).toBe(1);
    }
  });

  test("a subscription without a function is refused at once", () => {
    const api = buildDesktopApi(ipcTransport(fakeIpcRenderer().ipc));
    expect(() => (api.onStatus as unknown as (x: unknown) => void)("nope")).toThrow(/onStatus needs a listener/);
  });
});
