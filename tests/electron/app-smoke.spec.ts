// The desktop app itself, launched by Playwright under Electron (npm run test:electron): the
// main process starts the host, the sandboxed window gets its data through the preload and
// IPC, and a change made over the loopback API shows in it. Needs Electron's binary
// (HEADROOM_ELECTRON_BINARY, set by scripts/test-electron.mjs).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { _electron as electron, expect, test, type ElectronApplication } from "@playwright/test";

const ROOT = join(import.meta.dirname, "..", "..");

let app: ElectronApplication | undefined;
let dataDir: string;

test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "headroom-electron-"));
});

test.afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The API the app's host serves: its address from host.lock, its token from api-token. */
async function apiOf(dir: string): Promise<(method: string, path: string, body?: unknown) => Promise<unknown>> {
  let url: string | undefined;
  await expect
    .poll(() => {
      try {
        url = (JSON.parse(readFileSync(join(dir, "host.lock"), "utf8")) as { url?: string }).url;
      } catch {
        url = undefined;
      }
      return url;
    })
    .toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const token = readFileSync(join(dir, "api-token"), "utf8").trim();
  return async (method, path, body) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer: unknown = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

test("the app opens its window, shows a provider added over the API, and restores an auto-reduced limit", async () => {
  const executablePath = process.env.HEADROOM_ELECTRON_BINARY;
  // Skipped unless started by scripts/test-electron.mjs, which sets this path once it finds
  // Electron's binary installed (npm installs skip its download). It runs through
  // `npm run test:electron` wherever the binary is, as in CI (.github/workflows/electron.yml).
  test.skip(!executablePath, "HEADROOM_ELECTRON_BINARY is not set: run this through npm run test:electron");
  app = await electron.launch({
    executablePath: executablePath!,
    args: [ROOT],
    env: { ...process.env, HEADROOM_DATA_DIR: dataDir, HEADROOM_PORT: "0", HEADROOM_PROXY_PORT: "0" },
  });
  const window = await app.firstWindow();
  const api = await apiOf(dataDir);

  await api("PUT", "/concurrency/limits/anthropic", { limit: 4 });
  const card = window.getByRole("region", { name: "anthropic", exact: true });
  await expect(card.getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("4");

  // An agent's request was rate limited: Headroom lowers the limit and offers to restore it.
  const lease = (await api("POST", "/concurrency/acquire", { providerId: "anthropic", agentId: "claude-1" })) as { leaseId: string };
  await api("POST", `/concurrency/leases/${lease.leaseId}/release`, { outcome: "rate_limited", retryAfterMs: 30_000 });
  const banner = card.getByRole("alert");
  await expect(banner).toContainText("Limit for anthropic lowered from 4 to 3 after a rate limit (429).");

  await banner.getByRole("button", { name: "Restore limit to 4" }).click();
  await expect(banner).toHaveCount(0);
  await expect(card.getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("4");
  const status = (await api("GET", "/concurrency/status")) as { providers: { limit: number; autoReduced: boolean }[] };
  expect(status.providers[0]).toMatchObject({ limit: 4, autoReduced: false });
});
