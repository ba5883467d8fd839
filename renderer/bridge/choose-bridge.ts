// Electron's preload puts its API on window.headroom; anywhere else the window was served by
// `npm run serve` and talks HTTP to the origin it came from.
import type { Bridge } from "../../shared/contract";
import type { DesktopApi } from "../../shared/desktop-api";
import { createElectronBridge } from "./electron-bridge";
import { createHttpBridge } from "./http-bridge";
import { takeToken } from "./token";

declare global {
  interface Window {
    headroom?: DesktopApi;
  }
}

/** The bridge, and whether the window was given a token at all (a refusal then means a wrong one). */
export function chooseBridge(): { bridge: Bridge; tokenGiven: boolean } {
  if (window.headroom) return { bridge: createElectronBridge(window.headroom), tokenGiven: true };
  const token = takeToken({ location: window.location, storage: window.sessionStorage, history: window.history });
  return { bridge: createHttpBridge({ baseUrl: window.location.origin, token }), tokenGiven: token !== undefined };
}
