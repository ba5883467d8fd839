// The loopback API and the gating proxy run for as long as the app does, so agents reach it while the window is
// open. A host that cannot start (another one owns the folder, the port is taken) is reported
// in a dialog a person can act on, not a stack trace in a terminal they may not have.
import { dialog } from "electron";
import { HostStartError } from "../host/host-start-error";
import { startHost, type RunningHost } from "../host/start-host";
import { DEFAULT_API_PORT, DEFAULT_PROXY_PORT } from "../host/ports";
import { portFromEnv } from "./app-identity";
import type { ShellPaths } from "./app-paths";
import { electronStoreBackend } from "./settings-backend";

export interface AppHostOptions {
  dataDir: string;
  version: string;
  paths: ShellPaths;
  log: (message: string, detail?: unknown) => void;
}

/** The running host, or the exit status to quit with once the dialog has been read. */
export async function startAppHost({ dataDir, version, paths, log }: AppHostOptions): Promise<RunningHost | { exitCode: number }> {
  try {
    return await startHost({
      kind: "app",
      dataDir,
      version,
      port: portFromEnv(process.env, "HEADROOM_PORT", DEFAULT_API_PORT),
      proxyPort: portFromEnv(process.env, "HEADROOM_PROXY_PORT", DEFAULT_PROXY_PORT),
      settingsBackend: electronStoreBackend,
      // The same window is served to browsers too, for a look from another machine over SSH.
      staticDir: paths.rendererDir,
      log,
    });
  } catch (error) {
    const message =
      error instanceof HostStartError
        ? error.message
        : `Headroom could not start its host in ${dataDir}: ${error instanceof Error ? error.message : String(error)}`;
    log(message, error instanceof HostStartError ? undefined : error);
    dialog.showErrorBox("Headroom cannot start", message);
    return { exitCode: error instanceof HostStartError ? error.exitCode : 1 };
  }
}
