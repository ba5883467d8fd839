// Electron's security checklist applied to every web contents the app creates: no navigation
// away from our page, no new windows (https links go to the browser), no webviews, and every
// permission request (camera, notifications from the page, geolocation...) denied except the
// clipboard write our own page's Copy buttons need.
import type { App, Session, WebContents } from "electron";
import { externalLink, mayGrantPermission, mayNavigate } from "./navigation-policy";

export interface SecurityOptions {
  appUrl: string;
  openExternal: (url: string) => Promise<void>;
  log: (message: string, detail?: unknown) => void;
}

export function denyPermissions(session: Session, appUrl: string): void {
  session.setPermissionRequestHandler((contents, permission, callback) =>
    callback(mayGrantPermission(permission, contents.getURL(), appUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    mayGrantPermission(permission, details.requestingUrl ?? requestingOrigin, appUrl),
  );
  session.setDevicePermissionHandler(() => false);
}

export function hardenAllWebContents(app: App, options: SecurityOptions): void {
  app.on("web-contents-created", (_event, contents) => harden(contents, options));
}

function harden(contents: WebContents, { appUrl, openExternal, log }: SecurityOptions): void {
  const sendOut = (url: string) => {
    const link = externalLink(url);
    if (link) openExternal(link).catch((error: unknown) => log(`Could not open ${link}`, error));
  };
  contents.on("will-navigate", (event) => {
    if (mayNavigate(event.url, appUrl)) return;
    event.preventDefault();
    sendOut(event.url);
  });
  contents.on("will-redirect", (event) => {
    if (!mayNavigate(event.url, appUrl)) event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    sendOut(url);
    return { action: "deny" };
  });
}
