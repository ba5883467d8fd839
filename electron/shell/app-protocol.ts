// app://headroom in Electron's terms: the scheme's privileges must be declared before `ready`
// (Chromium fixes its scheme table at start-up), its handler can only be installed after.
import { protocol } from "electron";
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, answerAppRequest } from "./app-scheme";

export function declareAppScheme(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/** Serves the built window, and nothing else, to the default session. */
export function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => answerAppRequest(rendererDir, request));
}
