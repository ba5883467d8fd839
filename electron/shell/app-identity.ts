// Name and folders, pinned before `ready`. Electron would name the userData folder after
// package.json's lowercase "headroom"; SPEC §5 wants "Headroom", shared with `serve` and the
// CLI, and HEADROOM_DATA_DIR overrides it. The single-instance lock is keyed by userData, so
// this must run before the lock is requested.
import fs from "node:fs";
import type { App } from "electron";
import { APP_FOLDER_NAME, resolveDataDir } from "../data-folder/data-dir";
import { parsePort } from "../host/ports";

/** Also electron-builder.yml's appId; Windows shows notifications only for a known id. */
const APP_ID = "dev.headroom.app";

export function pinIdentity(app: Pick<App, "setName" | "setPath" | "setAppUserModelId">, env: NodeJS.ProcessEnv): string {
  const dataDir = resolveDataDir(undefined, env);
  // The instance lock lives in this folder and is taken before the host would create it.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  app.setName(APP_FOLDER_NAME);
  app.setPath("userData", dataDir);
  if (process.platform === "win32") app.setAppUserModelId(APP_ID);
  return dataDir;
}

/** A port from the environment (HEADROOM_PORT, HEADROOM_PROXY_PORT), else the default; 0 lets the system pick. */
export function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return parsePort(env[name], name, fallback);
}
