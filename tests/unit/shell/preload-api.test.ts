import { EventEmitter } from "node:events";
import { describe, expect, test } from "vitest";
import { PUSH_TOPICS } from "../../../shared/contract";
import { PRELOAD_CHANNELS, pushChannel } from "../../../shared/desktop-api";
import { INVOKE_CHANNELS, OPERATION_NAMES, operations } from "../../../shared/operations";
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
  test("has exactly one call per whitelisted channel and a subscribe, nothing else", () => {
    const api = buildDesktopApi(ipcTransport(fakeIpcRenderer().ipc));
    expect(Object.keys(api).sort()).toEqual(["call", "subscribe"]);
    expect(Object.keys(api.call).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(Object.values(api.call).every((member) => typeof member === "function")).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.call)).toBe(true);
  });

  test("the preload's spelled-out whitelist is exactly the table's window channels", () => {
    expect([...PRELOAD_CHANNELS].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  test("operations without a window channel (the agents' lease and route calls) are not exposed", () => {
    const api = buildDesktopApi(ipcTransport(fakeIpcRenderer().ipc));
    const hidden = OPERATION_NAMES.filter((name) => !("window" in operations[name]));
    expect(hidden).toEqual(expect.arrayContaining(["release", "heartbeat", "routeAdmit", "routeOutcome"]));
    for (const name of hidden) {
      expect(Object.keys(api.call)).not.toContain(name);
      expect(Object.keys(api.call)).not.toContain(operations[name].http[1]);
    }
  });

  test("each call invokes its own channel with the request as given", async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const calls = buildDesktopApi(ipcTransport(ipc)).call as unknown as Record<string, (request?: unknown) => Promise<unknown>>;
    for (const channel of INVOKE_CHANNELS) {
      const request = { marker: channel };
      await expect(calls[channel]!(request)).resolves.toEqual({ ok: true, value: channel });
    }
    expect(invoked).toEqual(INVOKE_CHANNELS.map((channel) => [channel, { marker: channel }]));
  });

  test("subscriptions get the payload only (never the IPC event) and unsubscribe exactly their listener", () => {
    const { ipc } = fakeIpcRenderer();
    const api = buildDesktopApi(ipcTransport(ipc));
    for (const topic of PUSH_TOPICS) {
      const first: unknown[][] = [];
      const second: unknown[][] = [];
      const stopFirst = api.subscribe(topic, (...args: unknown[]) => first.push(args));
      api.subscribe(topic, (...args: unknown[]) => second.push(args));
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

  test("a subscription without a function, or to an unknown topic, is refused at once", () => {
    const api = buildDesktopApi(ipcTransport(fakeIpcRenderer().ipc));
    const subscribe = api.subscribe as unknown as (topic: unknown, listener: unknown) => void;
    expect(() => subscribe("status", "nope")).toThrow(/needs a listener/);
    expect(() => subscribe("secrets", () => undefined)).toThrow(/subscribe needs one of status, routes, agents, history/);
  });
});
