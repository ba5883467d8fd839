import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { isAppDocument, isTrustedSender, type FrameLike } from "../../../electron/ipc/sender-check";

const appUrl = pathToFileURL("/opt/Headroom/resources/app.asar/dist/renderer/index.html").href;
const frame = (url: string, extra: Partial<FrameLike> = {}): FrameLike => ({ url, ...extra });

describe("which IPC senders are trusted", () => {
  test("the main window's main frame showing our page is trusted, with or without a fragment", () => {
    const main = frame(appUrl);
    expect(isTrustedSender(main, main, appUrl)).toBe(true);
    const routed = frame(`${appUrl}#/providers`);
    expect(isTrustedSender(routed, routed, appUrl)).toBe(true);
  });

  test("a subframe inside our window is refused even when it shows our page", () => {
    const main = frame(appUrl, { processId: 4, frameToken: "main" });
    const sub = frame(appUrl, { processId: 4, frameToken: "child" });
    expect(isTrustedSender(sub, main, appUrl)).toBe(false);
  });

  test("another window's main frame is refused", () => {
    const main = frame(appUrl, { processId: 4, frameToken: "a" });
    const other = frame(appUrl, { processId: 9, frameToken: "a" });
    expect(isTrustedSender(other, main, appUrl)).toBe(false);
  });

  test("a second wrapper of the same frame (same process and frame token) is the same frame", () => {
    const main = frame(appUrl, { processId: 4, frameToken: "t" });
    expect(isTrustedSender(frame(appUrl, { processId: 4, frameToken: "t" }), main, appUrl)).toBe(true);
  });

  test("our main frame after reaching another document is refused", () => {
    for (const url of [
      "https://example.com/",
      "http://127.0.0.1:7411/",
      pathToFileURL("/opt/Headroom/resources/app.asar/dist/renderer/other.html").href,
      pathToFileURL("/tmp/index.html").href,
      `${appUrl}?evil=1`,
      "about:blank",
      "not a url",
    ]) {
      const main = frame(url);
      expect(isTrustedSender(main, main, appUrl), url).toBe(false);
    }
  });

  test("no frame (destroyed) or no window is refused", () => {
    expect(isTrustedSender(null, frame(appUrl), appUrl)).toBe(false);
    expect(isTrustedSender(frame(appUrl), undefined, appUrl)).toBe(false);
  });

  test("file URLs compare by decoded path, and Windows drive letters case-insensitively", () => {
    expect(isAppDocument("file:///home/me/My%20Apps/index.html", "file:///home/me/My Apps/index.html")).toBe(true);
    expect(isAppDocument("file:///c:/Program%20Files/Headroom/index.html", "file:///C:/Program Files/Headroom/index.html")).toBe(true);
    expect(isAppDocument("file:///home/Me/index.html", "file:///home/me/index.html")).toBe(false);
  });
});
