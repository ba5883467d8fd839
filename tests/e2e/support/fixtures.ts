// Each test gets its own `serve` process on an ephemeral port over a fresh temp data folder,
// and a page with the window open and live.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test as base, type Page } from "@playwright/test";
import { startServe, type ServeProcess } from "../../support/serve-process";

/** A restart keeps the port, the data folder and so the token: url, windowUrl and client stay valid. */
export interface HostHandle extends Omit<ServeProcess, "pid" | "crash" | "proxyOrigin"> {
  /** Starts serve again on the same port and data folder after stop(). */
  start(): Promise<void>;
}

export const test = base.extend<{ host: HostHandle; openWindow: (page?: Page) => Promise<Page> }>({
  host: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), "headroom-e2e-"));
    let current = await startServe({ dataDir });
    const { url, windowUrl, port, token, client } = current;
    await use({
      url,
      windowUrl,
      port,
      token,
      dataDir,
      client,
      stop: () => current.stop(),
      start: async () => {
        current = await startServe({ dataDir, port });
      },
    });
    await current.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  openWindow: async ({ host, page }, use) => {
    await use(async (target = page) => {
      await target.goto(host.windowUrl);
      await expect(target.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
      return target;
    });
  },
});

export { expect };

/** A provider's card; exact, since "openai" would also match a card named "openai-2". */
export const card = (page: Page, providerId: string) => page.getByRole("region", { name: providerId, exact: true });

/** Counts requests the window sends that match method and path part (the no-request rules). */
export function countRequests(page: Page, method: string, pathPart: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === method && new URL(request.url()).pathname.includes(pathPart)) counter.count += 1;
  });
  return counter;
}
