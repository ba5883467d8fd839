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

export function chooseBridge(): Bridge {
  if (window.headroom) return createElectronBridge(window.headroom);
  const token = takeToken({ location: window.location, storage: window.sessionStorage, history: window.history });
  return createHttpBridge({ baseUrl: window.location.origin, token });
}
