// The one window. It is created on demand (at start, and again on macOS when the dock icon is
// clicked after the window was closed), so everyone asks the keeper for the current one.
import { BrowserWindow, nativeTheme } from "electron";
import { pushChannel } from "../../shared/desktop-api";
import { isAppDocument, type FrameLike } from "../ipc/sender-check";
import type { Delivery } from "../service/snapshot-feed";
import type { ShellPaths } from "./app-paths";

export interface WindowKeeper {
  /** Shows and focuses the window, creating it when there is none. */
  show(): BrowserWindow;
  /** The main frame IPC trusts, while a live window exists. */
  mainFrame(): FrameLike | undefined;
  /** Sends a snapshot to the window, and only while it shows our own page. */
  push(delivery: Delivery): void;
}

export function createWindowKeeper(paths: ShellPaths, log: (message: string, detail?: unknown) => void): WindowKeeper {
  let current: BrowserWindow | undefined;

  const live = () => (current && !current.isDestroyed() && !current.webContents.isDestroyed() ? current : undefined);

  const create = () => {
    const win = new BrowserWindow({
      title: "Headroom",
      width: 1180,
      height: 820,
      minWidth: 560,
      minHeight: 420,
      show: false,
      icon: paths.icon,
      // Matches the page's theme so the first paint does not flash white in dark mode.
      backgroundColor: nativeTheme.shouldUseDarkColors ? "#16181d" : "#ffffff",
      webPreferences: {
        preload: paths.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        spellcheck: false,
      },
    });
    win.once("ready-to-show", () => win.show());
    win.on("closed", () => {
      if (current === win) current = undefined;
    });
    win.loadURL(paths.appUrl).catch((error: unknown) => log(`Could not load ${paths.appUrl}`, error));
    return win;
  };

  return {
    show() {
      const win = live() ?? (current = create());
      if (win.isMinimized()) win.restore();
      if (win.webContents.isLoading()) return win; // ready-to-show will show it
      win.show();
      win.focus();
      return win;
    },
    mainFrame: () => live()?.webContents.mainFrame,
    push({ topic, snapshot }) {
      const win = live();
      if (!win || !isAppDocument(win.webContents.mainFrame.url, paths.appUrl)) return;
      win.webContents.send(pushChannel(topic), snapshot);
    },
  };
}
