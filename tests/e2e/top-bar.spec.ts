// SPEC §4: a bar that stays in view says what needs the user; while the host is gone the
// numbers are visibly stale and nothing can be edited; the title names what needs attention.
import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

test("the bar counts paused providers, open routes and queued agents, and each brings its item into view", async ({ page, host, openWindow }) => {
  for (let i = 0; i < 12; i++) await host.client.setLimit(`idle-${String(i).padStart(2, "0")}`, 2);
  await host.client.setLimit("anthropic", 3);
  await host.client.setLimit("zeta", 1);
  await host.client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "HTTP 529 overloaded");
  await page.setViewportSize({ width: 1280, height: 700 });
  await openWindow();
  const bar = page.getByRole("navigation", { name: "Needs attention" });
  await expect(bar.getByRole("button", { name: "0 paused providers" })).toBeVisible();
  await expect(page).toHaveTitle("Headroom — 1 route open");

  await rateLimit(host.client, "anthropic", 60_000);
  const held = await host.client.acquire({ providerId: "zeta", agentId: "codex-1" });
  const queued = host.client.acquire({ providerId: "zeta", agentId: "codex-2", timeoutMs: 20_000 }).catch(() => undefined);
  await expect(bar.getByRole("button", { name: "1 paused provider" })).toBeVisible();
  await expect(bar.getByRole("button", { name: "1 open route" })).toBeVisible();
  await expect(bar.getByRole("button", { name: "1 queued agent" })).toBeVisible();
  await expect(page).toHaveTitle("Headroom — anthropic paused, 1 route open");

  // The bar stays in view while the page scrolls.
  await page.mouse.wheel(0, 3_000);
  await expect(bar).toBeInViewport();
  await bar.getByRole("button", { name: "1 open route" }).click();
  const reset = page.getByRole("table", { name: "Routes" }).getByRole("button", { name: "Reset openai/http/gpt-5" });
  await expect(reset).toBeFocused();
  await expect(reset).toBeInViewport();
  await bar.getByRole("button", { name: "1 queued agent" }).click();
  await expect(card(page, "zeta").getByRole("heading", { name: "zeta" })).toBeFocused();
  await expect(card(page, "zeta").getByRole("heading", { name: "zeta" })).toBeInViewport();
  await bar.getByRole("button", { name: "1 paused provider" }).click();
  await expect(card(page, "anthropic").getByRole("heading", { name: "anthropic" })).toBeFocused();
  await expect(card(page, "anthropic").getByRole("heading", { name: "anthropic" })).toBeInViewport();

  await host.client.release(held.leaseId, "success");
  await queued;
});

test("while the host is gone the data is marked stale and the controls are off until it answers", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toBeEnabled();

  await expect(page).toHaveTitle("Headroom");
  await host.stop();
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting…" })).toBeVisible();
  await expect(page).toHaveTitle("Headroom — disconnected");
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting…" })).toContainText("from before");
  await expect(limit).toBeDisabled();
  await expect(page.getByRole("button", { name: "Add provider" })).toBeDisabled();
  await expect(page.locator("main")).toHaveCSS("opacity", "0.55");

  await host.start();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  await expect(page).toHaveTitle("Headroom");
  await expect(limit).toBeEnabled();
  await expect(page.locator("main")).toHaveCSS("opacity", "1");
});
