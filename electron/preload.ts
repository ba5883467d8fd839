// Runs in the window's sandboxed preload (bundled to one CommonJS file: sandboxed preloads
// cannot load ESM). Exposes exactly the contract's methods on window.headroom, never ipcRenderer.
import { contextBridge, ipcRenderer } from "electron";
import { buildDesktopApi, ipcTransport } from "./ipc/preload-api";

contextBridge.exposeInMainWorld("headroom", buildDesktopApi(ipcTransport(ipcRenderer)));
