import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { isTrustedSender, type FrameLike } from "../../../electron/ipc/sender-check";
import { APP_URL as appUrl } from "../../../electron/shell/app-scheme";

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
      pathToFileURL("/opt/Headroom/resources/app.asar/dist/renderer/index.html").href,
      pathToFileURL("/tmp/index.html").href,
      "app://headroom/other.html",
      "app://headroom/",
      "app://other/index.html",
      "app://headroom:1/index.html",
      "app://x:y@headroom/index.html",
      "headroom://headroom/index.html",
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
});
