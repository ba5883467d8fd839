import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { DEFAULT_API_PORT as DEFAULT_PORT } from "../../../electron/host/ports";
import { pinIdentity, portFromEnv } from "../../../electron/shell/app-identity";
import { shellPaths } from "../../../electron/shell/app-paths";
import { APP_URL } from "../../../electron/shell/app-scheme";
import { externalLink, mayGrantPermission, mayNavigate } from "../../../electron/shell/navigation-policy";
import { trayText } from "../../../electron/shell/tray-text";
import type { ConcurrencyStatusEntry } from "../../../shared/types";
import { statusEntry } from "../../support/status-entry";

describe("paths of the built app", () => {
  test("preload, icon and window sit beside and above main.js; the window is app://headroom/index.html", () => {
    const main = pathToFileURL(path.resolve("/opt/Headroom/resources/app.asar/dist/electron/main.js")).href;
    const paths = shellPaths(main);
    expect(paths.preload).toBe(path.resolve("/opt/Headroom/resources/app.asar/dist/electron/preload.cjs"));
    expect(paths.icon).toBe(path.resolve("/opt/Headroom/resources/app.asar/dist/electron/icon.png"));
    expect(paths.rendererDir).toBe(path.resolve("/opt/Headroom/resources/app.asar/dist/renderer"));
    expect(paths.appUrl).toBe("app://headroom/index.html");
  });
});

describe("identity and ports", () => {
  function fakeApp() {
    const calls: [string, ...unknown[]][] = [];
    return {
      calls,
      setName: (name: string) => void calls.push(["setName", name]),
      setPath: (name: string, value: string) => void calls.push(["setPath", name, value]),
      setAppUserModelId: (id: string) => void calls.push(["setAppUserModelId", id]),
    };
  }

  test("HEADROOM_DATA_DIR becomes userData, made absolute and created", () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-identity-"));
    try {
      const app = fakeApp();
      const relative = path.relative(process.cwd(), path.join(base, "data"));
      const dir = pinIdentity(app as never, { HEADROOM_DATA_DIR: relative });
      expect(dir).toBe(path.join(base, "data"));
      expect(fs.statSync(dir).isDirectory()).toBe(true);
      expect(app.calls).toContainEqual(["setPath", "userData", dir]);
      expect(app.calls).toContainEqual(["setName", "Headroom"]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  test("ports come from the environment, with defaults and a readable refusal", () => {
    expect(portFromEnv({}, "HEADROOM_PORT", DEFAULT_PORT)).toBe(7411);
    expect(portFromEnv({ HEADROOM_PORT: "0" }, "HEADROOM_PORT", DEFAULT_PORT)).toBe(0);
    expect(portFromEnv({ HEADROOM_PROXY_PORT: "9000" }, "HEADROOM_PROXY_PORT", 7412)).toBe(9000);
    expect(() => portFromEnv({ HEADROOM_PORT: "http" }, "HEADROOM_PORT", DEFAULT_PORT)).toThrow(
      'HEADROOM_PORT must be an integer from 0 to 65535 (got "http")',
    );
  });
});

describe("navigation", () => {
  const appUrl = APP_URL;

  test("only our own document may load in the window: app://headroom/index.html, any fragment", () => {
    expect(mayNavigate(`${appUrl}#/routes`, appUrl)).toBe(true);
    for (const url of [
      "https://example.com/",
      "file:///etc/passwd",
      "file:///opt/Headroom/resources/app.asar/dist/renderer/index.html",
      "app://headroom/other.html",
      "app://evil/index.html",
      "app://headroom.evil/index.html",
      "app://headroom:8080/index.html",
      "app://me@headroom/index.html",
      "app://headroom/index.html?next=https://example.com/",
      "http://headroom/index.html",
      "javascript:alert(1)",
    ]) {
      expect(mayNavigate(url, appUrl), url).toBe(false);
    }
  });

  test("the window may copy to the clipboard and nothing else: every other permission is refused", () => {
    expect(mayGrantPermission("clipboard-sanitized-write", appUrl, appUrl)).toBe(true);
    expect(mayGrantPermission("clipboard-sanitized-write", "https://example.com/", appUrl)).toBe(false);
    for (const permission of ["clipboard-read", "media", "geolocation", "notifications", "openExternal"]) {
      expect(mayGrantPermission(permission, appUrl, appUrl), permission).toBe(false);
    }
  });

  test("only https links are handed to the browser", () => {
    expect(externalLink("https://docs.anthropic.com/")).toBe("https://docs.anthropic.com/");
    for (const url of ["http://example.com/", "file:///etc/passwd", "javascript:alert(1)", "smb://host/share", "nonsense"]) {
      expect(externalLink(url), url).toBeUndefined();
    }
  });
});

describe("tray text", () => {
  const entry = (over: Partial<ConcurrencyStatusEntry>) => statusEntry("p", { limit: 1, ...over });

  test("totals active/limit over every provider, with queued and paused when there are any", () => {
    expect(trayText({ providers: [] })).toEqual({ title: "", tooltip: "Headroom: no providers yet" });
    expect(trayText({ providers: [entry({ active: 2, limit: 4 }), entry({ active: 1, limit: 2 })] })).toEqual({
      title: "3/6",
      tooltip: "Headroom: 3/6 active",
    });
    expect(
      trayText({ providers: [entry({ active: 4, limit: 4, queued: 3 }), statusEntry("anthropic", { limit: 2, paused: true })] }).tooltip,
    ).toBe("Headroom: 4/6 active, 3 queued, anthropic paused");
  });

  test("names what needs attention in the window title's words: a used-up window, a missing upstream, a reduction", () => {
    const providers = [
      statusEntry("anthropic", { paused: true, windows: [{ name: "5h", usedPercent: 100, status: "rejected", seenAt: 1 }] }),
      statusEntry("gemini", { upstreamFailures: { count: 2, lastError: "no upstream", lastAt: 1 } }),
      statusEntry("openai", { autoReduced: true, autoReducedFrom: 4 }),
    ];
    expect(trayText({ providers }).tooltip).toBe(
      "Headroom: 0/9 active, anthropic 5-hour window used up, gemini has no working upstream, openai auto-reduced",
    );
  });

  test("says when the host's Redis is unreachable, and nothing of Redis otherwise", () => {
    const providers = [entry({ active: 1, limit: 4, shared: true, hosts: 2 })];
    expect(trayText({ providers, redis: { connected: false, error: "ECONNREFUSED" } }).tooltip).toBe("Headroom: 1/4 active, Redis unreachable");
    expect(trayText({ providers, redis: { connected: true } }).tooltip).toBe("Headroom: 1/4 active");
  });
});
