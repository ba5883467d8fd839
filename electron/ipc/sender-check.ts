// Who may call the main process: only the main frame of our one window, showing our own page.
// A subframe, another window, or our window after it somehow reached another document (a
// navigation we failed to stop, another app:// path, any file:// page) is refused (VS Code's
// ValidatedIpcMain and Electron's security checklist, item 17).

/** The part of Electron's WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly processId?: number;
  readonly frameToken?: string;
}

export function isTrustedSender(
  senderFrame: FrameLike | null | undefined,
  mainFrame: FrameLike | undefined,
  appUrl: string,
): boolean {
  if (!senderFrame || !mainFrame) return false;
  return sameFrame(senderFrame, mainFrame) && isAppDocument(senderFrame.url, appUrl);
}

/**
 * Electron hands out one WebFrameMain object per frame, so identity is the check; the
 * (process, frame token) pair names the same frame should a second wrapper ever appear.
 */
function sameFrame(a: FrameLike, b: FrameLike): boolean {
  if (a === b) return true;
  return (
    a.frameToken !== undefined &&
    a.frameToken === b.frameToken &&
    a.processId !== undefined &&
    a.processId === b.processId
  );
}

/**
 * The same document as appUrl (app://headroom/index.html): scheme, host, credentials, port,
 * path and query all equal; only the fragment, the page's own routing, may differ.
 */
export function isAppDocument(url: string, appUrl: string): boolean {
  const actual = withoutFragment(url);
  return actual !== undefined && actual === withoutFragment(appUrl);
}

function withoutFragment(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return undefined;
  }
}
