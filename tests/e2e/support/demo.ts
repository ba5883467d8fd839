// The demo (`npm run demo`) as a test fixture: host, fake provider and simulated agents on
// ephemeral ports over a temp folder, with the window open on it.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";
import { startDemo, type RunningDemo } from "../../../demo/demo";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export const test = base.extend<{ demo: RunningDemo; openDemo: (page?: Page) => Promise<Page> }>({
  demo: async ({}, use) => {
    const demo = await startDemo({ port: 0, proxyPort: 0, staticDir: join(root, "dist", "renderer"), version: "test", log: () => undefined });
    await use(demo);
    await demo.stop();
  },
  openDemo: async ({ demo, page }, use) => {
    await use(async (target = page) => {
      await target.goto(demo.host.windowUrl);
      await expect(target.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
      return target;
    });
  },
});

export { expect };
