// Pure decisions behind the window's security handlers, kept apart so they are unit-tested.
import { isAppDocument } from "../ipc/sender-check";

/** A link the user clicked that should open in their browser: https only, never file: or custom schemes. */
export function externalLink(url: string): string | undefined {
  try {
    return new URL(url).protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The window may only (re)load its own document; anything else is refused. */
export function mayNavigate(url: string, appUrl: string): boolean {
  return isAppDocument(url, appUrl);
}

/**
 * Every permission is refused except writing to the clipboard from our own page: Chromium
 * asks for `clipboard-sanitized-write` before `navigator.clipboard.writeText`, and the window's
 * Copy buttons (the base-URL and `headroom run` lines) depend on it.
 */
export function mayGrantPermission(permission: string, requestingUrl: string, appUrl: string): boolean {
  return permission === "clipboard-sanitized-write" && isAppDocument(requestingUrl, appUrl);
}
