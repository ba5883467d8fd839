// Every main task with the keyboard alone: no click, no mouse move.
import type { Page } from "@playwright/test";
import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

/** The focused element's accessible name as a keyboard user hears it (aria-label, else text). */
const focusedName = (page: Page) =>
  page.evaluate(`(() => {
    const element = document.activeElement;
    return element?.getAttribute("aria-label") ?? element?.textContent?.trim() ?? "";
  })()`) as Promise<string>;

/** Presses Tab (or Shift+Tab) until the control named `name` has focus. */
async function tabTo(page: Page, name: string, backwards = false): Promise<void> {
  for (let presses = 0; presses < 150; presses++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${name}`);
}

test("restore, dismiss, limit, cooldown, copy, release, reset, add and remove, all by keyboard", async ({ page, context, host, openWindow }) => {
  test.setTimeout(90_000); // one long walk through the whole window, details included
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { client } = host;
  await client.setLimit("anthropic", 4);
  await client.setProvider("anthropic", { upstream: "https://api.anthropic.com" });
  await client.setLimit("openai", 2);
  await client.acquire({ providerId: "openai", agentId: "codex-1" });
  await client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "HTTP 529 overloaded");
  await rateLimit(client, "anthropic", 1_000);
  await openWindow();
  const anthropic = card(page, "anthropic");
  await expect(anthropic.getByRole("alert")).toBeVisible();

  await tabTo(page, "Dismiss");
  await page.keyboard.press("Enter");
  await expect(anthropic.getByRole("button", { name: "Restore limit to 4" })).toBeFocused();
  await expect.poll(async () => (await client.status()).providers.find((p) => p.providerId === "anthropic")?.noticeDismissed).toBe(true);
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await client.limit("anthropic")).limit).toBe(4);
  const limit = anthropic.getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toBeFocused();

  await page.keyboard.press("Control+A");
  await page.keyboard.type("6");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await client.limit("anthropic")).limit).toBe(6);

  await tabTo(page, "Cooldown for anthropic");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await client.cooldown("anthropic")).cooldownMs).toBe(380);

  // The rest is in the details: Enter opens them and puts focus in them.
  await tabTo(page, "Details for anthropic", true);
  await page.keyboard.press("Enter");
  const details = page.getByRole("region", { name: "anthropic details" });
  await expect(details.getByRole("heading", { name: "anthropic" })).toBeFocused();
  await tabTo(page, "Copy run command for anthropic");
  await page.keyboard.press("Enter");
  await expect(details.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe("npx headroom run --provider anthropic -- claude");

  await tabTo(page, "Release codex-1");
  await page.keyboard.press("Enter");
  await expect(card(page, "openai").getByRole("button", { name: "Yes, release codex-1" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await client.leases("openai")).held.length).toBe(0);

  await tabTo(page, "Reset openai/http/gpt-5");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await client.routes()).routes[0]?.state).toBe("closed");

  await tabTo(page, "Provider id", true);
  await page.keyboard.type("mistral");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("2");
  await page.keyboard.press("Enter");
  await expect(card(page, "mistral")).toBeVisible();
  expect(await client.limit("mistral")).toEqual({ providerId: "mistral", limit: 2 });

  await tabTo(page, "Details for mistral", true);
  await page.keyboard.press("Enter");
  await tabTo(page, "Remove mistral");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "mistral details" }).getByRole("button", { name: "Yes, remove mistral" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(card(page, "mistral")).toHaveCount(0);
  expect((await client.status()).providers.map((p) => p.providerId)).toEqual(["anthropic", "openai"]);
  // Focus went somewhere a keyboard user can carry on from, not the page body.
  expect(await page.evaluate("document.activeElement?.tagName")).not.toBe("BODY");
});
