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
