// Who may call the main process: only the main frame of our one window, showing our own page.
// A subframe, another window, or our window after it somehow reached another document (a
// navigation we failed to stop, a file:// page beside ours) is refused (VS Code's
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

/** The same document as appUrl: same scheme, host and path; the fragment is the page's own business. */
export function isAppDocument(url: string, appUrl: string): boolean {
  const actual = parse(url);
  const expected = parse(appUrl);
  if (!actual || !expected) return false;
  return (
    actual.protocol === expected.protocol &&
    actual.host === expected.host &&
    actual.search === expected.search &&
    samePath(actual.pathname, expected.pathname)
  );
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

// Windows paths are case-insensitive and Chromium may spell the drive letter either way.
function samePath(a: string, b: string): boolean {
  const decodedA = decodeURIComponent(a);
  const decodedB = decodeURIComponent(b);
  if (/^\/[A-Za-z]:\//.test(decodedB)) return decodedA.toLowerCase() === decodedB.toLowerCase();
  return decodedA === decodedB;
}
