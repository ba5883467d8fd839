// How the app starts and ends: one instance per data folder, and a quit that first stops the
// host (waiters answered, settings and held leases written, sockets closed). Electron is
// imported for types only, so the quit sequence is unit-tested with a stand-in app.
import type { App } from "electron";

/** Past this, quitting goes ahead even if the host has not finished stopping. */
export const STOP_DEADLINE_MS = 5_000;

type Log = (message: string, detail?: unknown) => void;

/** False when another instance holds the folder; it is told to show its window instead. */
export function claimSingleInstance(
  app: Pick<App, "requestSingleInstanceLock" | "on">,
  onSecondLaunch: () => void,
): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on("second-instance", onSecondLaunch);
  return true;
}

/** Holds the first quit until `stop` settles (or the deadline passes), then quits for real. */
export function stopBeforeQuit(app: Pick<App, "on" | "quit">, stop: () => Promise<void>, log: Log): void {
  let phase: "running" | "stopping" | "stopped" = "running";
  app.on("before-quit", (event) => {
    if (phase === "stopped") return;
    event.preventDefault();
    if (phase === "stopping") return;
    phase = "stopping";
    let deadline: NodeJS.Timeout | undefined;
    const overdue = new Promise<void>((resolve) => {
      deadline = setTimeout(() => {
        log(`The host did not stop within ${STOP_DEADLINE_MS} ms; quitting anyway.`);
        resolve();
      }, STOP_DEADLINE_MS);
    });
    const stopped = stop().catch((error: unknown) => log("Stopping the host failed", error));
    void Promise.race([stopped, overdue]).then(() => {
      clearTimeout(deadline);
      phase = "stopped";
      app.quit();
    });
  });
}

/**
 * Ctrl-C in the terminal that ran `npm start`, or a service manager's SIGTERM, quit cleanly.
 * `on`, not `once`: a Ctrl-C reaches Electron twice (from the terminal and relayed by the
 * launcher), and a second signal must not kill a shutdown half-way; quitting twice is harmless.
 */
export function quitOnSignals(app: Pick<App, "quit">): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => app.quit());
}

/**
 * Closing the window quits, except on macOS where apps stay in the dock (and the host keeps
 * serving agents) until Quit; clicking the dock icon brings the window back.
 */
export function followPlatformWindowRules(app: Pick<App, "on" | "quit">, showWindow: () => void): void {
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  app.on("activate", showWindow);
}
