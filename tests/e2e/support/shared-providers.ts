// The window's side of shared providers (SPEC §7) as a page object, and the `headroom` command
// run from the sources against a test's host: for the no-Redis spec here and the Redis one.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test as base, type Page } from "@playwright/test";
import { startRedisServer, type RedisServer } from "../../support/redis-server";
import { startServe, type ServeProcess } from "../../support/serve-process";
import { card } from "./fixtures";

const details = (page: Page, providerId: string) => page.getByRole("region", { name: `${providerId} details`, exact: true });

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export const NO_REDIS_EXPLANATION = "Start Headroom with HEADROOM_REDIS_URL to share providers across machines.";

export function sharedUi(page: Page) {
  return {
    /** The `Share <id> across machines` switch in the provider's details; aria-checked says whether it is shared. */
    shareSwitch: (providerId: string) => details(page, providerId).getByRole("switch", { name: `Share ${providerId} across machines` }),
    /** `Shared · N hosts` in the card's head. */
    hostsBadge: (providerId: string) => card(page, providerId).getByText(/^Shared( · \d+ hosts?)?$/),
    /** Why the provider's agents wait (e.g. Redis unreachable). */
    waitReason: (providerId: string) => card(page, providerId).getByRole("status").filter({ hasText: /^Agents wait:/ }),
    /** `Redis connected` / `Redis unreachable` in the top bar; absent on a host without Redis. */
    redisState: () => page.locator(".top-bar").getByRole("status").filter({ hasText: /^Redis / }),
    /** A holder's or waiter's line naming its host, in the details (the card has no room for it). */
    onHost: (providerId: string, host: string) => details(page, providerId).getByRole("listitem").filter({ hasText: `on ${host}` }),
  };
}

export interface CliAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `headroom <args>` from cli/ through tsx (no bundle to go stale), pointed at `host` only. */
export function headroomCli(host: { url: string; token: string; dataDir: string }, args: string[]): Promise<CliAnswer> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("HEADROOM_")));
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", ...args], {
    cwd: root,
    env: { ...inherited, HEADROOM_URL: host.url, HEADROOM_TOKEN: host.token, HEADROOM_DATA_DIR: host.dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** A `serve` host that shares providers on its own real redis-server (SPEC §7). */
export const testWithRedis = base.extend<{ redis: RedisServer; sharingHost: ServeProcess; openWindow: () => Promise<Page> }>({
  redis: async ({}, use) => {
    const redis = await startRedisServer();
    await use(redis);
    await redis.stop();
  },
  sharingHost: async ({ redis }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), "headroom-e2e-redis-"));
    const serveArgs = ["electron/serve.ts", "--port", "0", "--proxy-port", "0", "--data-dir", dataDir];
    const host = await startServe({ dataDir, script: [...serveArgs, "--redis", redis.url] });
    await use(host);
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  openWindow: async ({ sharingHost, page }, use) => {
    await use(async () => {
      await page.goto(sharingHost.windowUrl);
      await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
      return page;
    });
  },
});
