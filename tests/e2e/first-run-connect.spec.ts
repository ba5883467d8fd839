// SPEC §4 "First run" with the keyboard alone: a preset, then an agent connected on `Apply`,
// against a real `serve` whose HOME is a temp folder (the agent's file is real, on disk).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startServe, type ServeProcess } from "../support/serve-process";

const focusedName = (page: Page) =>
  page.evaluate(`(() => {
    const element = document.activeElement;
    return element?.getAttribute("aria-label") ?? element?.textContent?.trim() ?? "";
  })()`) as Promise<string>;

async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 150; presses++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${name}`);
}

let serve: ServeProcess;
let dataDir: string;
let home: string;
const ORIGINAL = '{\n  "model": "opus"\n}\n';

test.beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "headroom-e2e-"));
  home = mkdtempSync(join(tmpdir(), "headroom-e2e-home-"));
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", "settings.json"), ORIGINAL);
  serve = await startServe({ dataDir, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CLAUDE_CONFIG_DIR: "", CODEX_HOME: "" } });
});
test.afterEach(async () => {
  await serve.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

test("first run by keyboard: Add Anthropic, Connect Claude Code, Apply; Disconnect restores the file", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(serve.windowUrl);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  await expect(page.getByText("No providers yet. Add one with a button below, or a custom provider with the form at the end of the page.")).toBeVisible();
  const connect = page.getByRole("region", { name: "Connect" });
  await expect(connect.getByRole("button", { name: "Connect Claude Code" })).toBeVisible();

  // The first minute, as the docs show it (docs/first-run.png is a copy).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "test-results/screenshots/first-run-light-1280.png" });
  await tabTo(page, "Add Anthropic");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await serve.client.provider("anthropic").catch(() => undefined))?.upstream).toBe("https://api.anthropic.com");
  await expect(page.getByRole("button", { name: "Add Anthropic" })).toHaveCount(0);

  await tabTo(page, "Connect Claude Code");
  await page.keyboard.press("Enter");
  await expect(page.getByText(/\+\s+"env": \{/)).toBeVisible();
  expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toBe(ORIGINAL);
  await tabTo(page, "Apply");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Claude Code is connected to anthropic." })).toBeVisible();
  const proxy = await serve.proxyOrigin();
  const connected = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")) as Record<string, unknown>;
  expect(connected).toMatchObject({ model: "opus", env: { ANTHROPIC_BASE_URL: `${proxy}/anthropic` } });
  // Headroom's own line in Claude Code's status bar, an absolute command (SPEC §10).
  expect(connected.statusLine).toMatchObject({ type: "command", command: expect.stringMatching(/\/bin\/headroom\.js statusline --provider anthropic$/) });

  await tabTo(page, "Disconnect Claude Code");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Claude Code is disconnected" })).toBeVisible();
  expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toBe(ORIGINAL);
});
