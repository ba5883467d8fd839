// The pure half of the preload: builds `window.headroom` from the contract, given a way to
// invoke a channel and to listen on one. The preload passes ipcRenderer-backed functions;
// tests pass fakes. Nothing here can hand the page a raw ipcRenderer or an IPC event.
import { INVOKE_CHANNELS, PUSH_TOPICS, type InvokeChannel } from "../../shared/contract";
import {
  DESKTOP_METHODS,
  DESKTOP_SUBSCRIPTIONS,
  pushChannel,
  type DesktopApi,
} from "../../shared/desktop-api";

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

export function buildDesktopApi(transport: PreloadTransport): DesktopApi {
  const api: Record<string, unknown> = {};
  for (const channel of INVOKE_CHANNELS) {
    api[DESKTOP_METHODS[channel]] = (request?: unknown) => transport.invoke(channel, request);
  }
  for (const topic of PUSH_TOPICS) {
    api[DESKTOP_SUBSCRIPTIONS[topic]] = (listener: unknown) => {
      if (typeof listener !== "function") {
        throw new TypeError(`${DESKTOP_SUBSCRIPTIONS[topic]} needs a listener function`);
      }
      return transport.on(pushChannel(topic), (payload) => listener(payload));
    };
  }
  // The shape is built from DESKTOP_METHODS and DESKTOP_SUBSCRIPTIONS, which DesktopApi is derived from.
  return Object.freeze(api) as DesktopApi;
}
