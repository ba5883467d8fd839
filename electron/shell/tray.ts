// The tray icon: total active/limit at a glance, and a way back to the window or out.
import { Menu, Tray, nativeImage } from "electron";
import type { ConcurrencyStatusResponse } from "../../shared/types";
import { trayText } from "./tray-text";

export interface TrayActions {
  showWindow(): void;
  quit(): void;
}

export function createTray(iconPath: string, actions: TrayActions): { update(status: ConcurrencyStatusResponse): void } {
  // Menu bars and notification areas draw at 16 px (macOS, Windows) or about 22 px (Linux panels).
  const size = process.platform === "linux" ? 22 : 16;
  const tray = new Tray(nativeImage.createFromPath(iconPath).resize({ width: size, height: size }));
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: "Show window", click: () => actions.showWindow() },
      { type: "separator" },
      { label: "Quit Headroom", click: () => actions.quit() },
    ]),
  );
  // Windows opens the menu on right click only; a left click should bring the window back.
  tray.on("click", () => actions.showWindow());
  return {
    update(status) {
      const text = trayText(status);
      tray.setToolTip(text.tooltip);
      if (process.platform === "darwin") tray.setTitle(text.title);
    },
  };
}
