// Where the shell's files sit once built: main.js, preload.cjs and icon.png in dist/electron,
// the window in dist/renderer. Derived from main.js's own URL so it holds inside an asar too.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL } from "./app-scheme";

export interface ShellPaths {
  /** The built window's folder: the only files app:// serves (and `serve` over http). */
  rendererDir: string;
  /** The only document the window may show and the only one whose main frame may call IPC. */
  appUrl: string;
  preload: string;
  icon: string;
}

export function shellPaths(mainModuleUrl: string): ShellPaths {
  const here = path.dirname(fileURLToPath(mainModuleUrl));
  return {
    rendererDir: path.join(here, "..", "renderer"),
    appUrl: APP_URL,
    preload: path.join(here, "preload.cjs"),
    icon: path.join(here, "icon.png"),
  };
}
