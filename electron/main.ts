// The Electron shell, in the order things happen. Each step is one short module: identity and
// paths, single instance, security, the host, the window, IPC, pushes, tray and notifications.
// Everything below `electron/shell` and `electron/ipc` is the only code that touches Electron.
import { app, ipcMain, session, shell } from "electron";
import { createChannelTable } from "./ipc/channel-table";
import { registerChannels } from "./ipc/register-channels";
import { snapshotOf, startSnapshotFeed } from "./service/snapshot-feed";
import { createAlertTracker } from "./shell/alerts";
import { startAppHost } from "./shell/app-host";
import { pinIdentity } from "./shell/app-identity";
import { shellPaths } from "./shell/app-paths";
import { declareAppScheme, serveAppScheme } from "./shell/app-protocol";
import { claimSingleInstance, followPlatformWindowRules, quitOnSignals, stopBeforeQuit } from "./shell/lifecycle";
import { createWindowKeeper } from "./shell/main-window";
import { createNotifier } from "./shell/notifier";
import { denyPermissions, hardenAllWebContents } from "./shell/security";
import { createTray } from "./shell/tray";

const log = (message: string, detail?: unknown) => console.error(`[headroom] ${message}`, detail ?? "");

// 1. Name and data folder, before anything reads userData (the instance lock does); the
//    window's app:// scheme, which Chromium accepts only before ready.
const paths = shellPaths(import.meta.url);
const dataDir = pinIdentity(app, process.env);
declareAppScheme();
const windows = createWindowKeeper(paths, log);

// 2. One instance per data folder: a second launch brings the first one's window forward.
if (claimSingleInstance(app, () => void app.whenReady().then(() => windows.show()))) {
  main().catch((error: unknown) => {
    log("Headroom failed to start", error);
    app.exit(1);
  });
} else {
  app.quit();
}

async function main(): Promise<void> {
  // 3. Security for every web contents, before any exists; once ready, app://headroom serves
  //    the built window's folder and nothing else.
  hardenAllWebContents(app, { appUrl: paths.appUrl, openExternal: (url) => shell.openExternal(url), log });
  await app.whenReady();
  serveAppScheme(paths.rendererDir);
  denyPermissions(session.defaultSession, paths.appUrl);

  // 4. The host: lock, settings (electron-store), service, the loopback API and the proxy for agents.
  const version = app.getVersion();
  const host = await startAppHost({ dataDir, version, paths, log });
  if ("exitCode" in host) return app.exit(host.exitCode);
  quitOnSignals(app);

  // 5. The window's calls, checked for sender and arguments, answered by the service.
  const table = createChannelTable(host.service);
  registerChannels({ ipcMain, table, mainFrame: () => windows.mainFrame(), appUrl: paths.appUrl, log });

  // 6. Tray and notifications, fed with the window's own pushes.
  const tray = createTray(paths.icon, { showWindow: () => windows.show(), quit: () => app.quit() });
  const notify = createNotifier(paths.icon, () => windows.show());
  const alerts = createAlertTracker(() => host.service.clock.now());
  for (const delivery of [snapshotOf(host.service, "status"), snapshotOf(host.service, "routes")]) {
    alerts.observe(delivery); // the baseline: what was already true at start is not news
    if (delivery.topic === "status") tray.update(delivery.snapshot);
  }
  const stopFeed = startSnapshotFeed(host.service, host.service.clock, (delivery) => {
    windows.push(delivery);
    if (delivery.topic === "status") tray.update(delivery.snapshot);
    for (const alert of alerts.observe(delivery)) notify(alert);
  });

  // 7. Quitting stops the feed, then the host, before the process ends.
  stopBeforeQuit(
    app,
    async () => {
      stopFeed();
      await host.stop();
    },
    log,
  );
  followPlatformWindowRules(app, () => windows.show());
  windows.show();
}
