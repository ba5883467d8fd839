// The pure half of the preload: builds `window.headroom` from the operations table, given a way
// to invoke a channel and to listen on one. The preload passes ipcRenderer-backed functions;
// tests pass fakes. Nothing here can hand the page a raw ipcRenderer or an IPC event, and only
// the table's whitelisted channels (rows with `window`, spelled out in PRELOAD_CHANNELS) are reachable.
import { PUSH_TOPICS, type InvokeChannel, type PushTopic } from "../../shared/contract";
import { PRELOAD_CHANNELS, pushChannel, type DesktopApi, type DesktopCalls } from "../../shared/desktop-api";

export interface PreloadTransport {
  invoke(channel: InvokeChannel, request: unknown): Promise<unknown>;
  /** Listens on a push channel with only the payload; returns what removes exactly that listener. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

/** The part of Electron's ipcRenderer the preload uses (structural, so tests pass an EventEmitter). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function ipcTransport(ipc: IpcRendererLike): PreloadTransport {
  return {
    invoke: (channel, request) => ipc.invoke(channel, request),
    on(channel, listener) {
      // The event is dropped: it carries `sender` (the ipcRenderer), which the page must never get.
      const onMessage = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(channel, onMessage);
      return () => {
        ipc.removeListener(channel, onMessage);
      };
    },
  };
}

const isTopic = (topic: unknown): topic is PushTopic => (PUSH_TOPICS as readonly unknown[]).includes(topic);

export function buildDesktopApi(transport: PreloadTransport): DesktopApi {
  const call = Object.freeze(
    Object.fromEntries(PRELOAD_CHANNELS.map((channel) => [channel, (request?: unknown) => transport.invoke(channel, request)])),
    // What crosses back is the main process's Result for that channel (ipc/register-channels.ts).
  ) as DesktopCalls;
  return Object.freeze({
    call,
    subscribe(topic: unknown, listener: unknown) {
      if (!isTopic(topic)) throw new TypeError(`subscribe needs one of ${PUSH_TOPICS.join(", ")}`);
      if (typeof listener !== "function") throw new TypeError(`subscribe("${topic}") needs a listener function`);
      return transport.on(pushChannel(topic), (payload) => listener(payload));
    },
  }) as DesktopApi;
}
