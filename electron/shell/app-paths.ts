// Where the shell's files sit once built: main.js, preload.cjs and icon.png in dist/electron,
// the window in dist/renderer. Derived from main.js's own URL so it holds inside an asar too.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface ShellPaths {
  rendererIndex: string;
  /** The only document the window may show and the only one whose main frame may call IPC. */
  appUrl: string;
  preload: string;
  icon: string;
}

export function shellPaths(mainModuleUrl: string): ShellPaths {
  const here = path.dirname(fileURLToPath(mainModuleUrl));
  const rendererIndex = path.join(here, "..", "renderer", "index.html");
  return {
    rendererIndex,
    appUrl: pathToFileURL(rendererIndex).href,
    preload: path.join(here, "preload.cjs"),
    icon: path.join(here, "icon.png"),
  };
}
