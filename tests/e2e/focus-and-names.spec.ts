// SPEC §4: unique button names per region, confirmations in place, and focus that lands on a
// sensible control after every action instead of falling to the page.
import { card, expect, openDetails, test } from "./support/fixtures";

test("one agent holding two leases gets two distinct Release buttons", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  const first = await host.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
  const second = await host.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
  await host.client.acquire({ providerId: "anthropic", agentId: "codex-2" });
  await openWindow();
  const anthropic = card(page, "anthropic");
  await expect(anthropic.getByRole("button", { name: `Release claude-1 (${first.leaseId})` })).toBeVisible();
  await expect(anthropic.getByRole("button", { name: `Release claude-1 (${second.leaseId})` })).toBeVisible();
  await expect(anthropic.getByRole("button", { name: "Release codex-2", exact: true })).toBeVisible();
  await expect((await openDetails(page, "anthropic")).getByRole("button", { name: "Remove anthropic" })).toBeVisible();
});

test("every route's Reset button names its route", async ({ page, host, openWindow }) => {
  await host.client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "r1", "failure", "HTTP 529");
  await host.client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5-mini" }, "r2", "failure", "HTTP 529");
  await openWindow();
  const table = page.getByRole("table", { name: "Routes" });
  await expect(table.getByRole("button", { name: "Reset openai/http/gpt-5", exact: true })).toBeVisible();
  await table.getByRole("button", { name: "Reset openai/http/gpt-5-mini" }).click();
  // The button left with its route's open state: focus went to the next Reset, not the page.
  await expect(table.getByRole("button", { name: "Reset openai/http/gpt-5", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("spinbutton", { name: "Breaker threshold" })).toBeFocused();
});

test("focus on a Release button does not vanish while other agents come and go", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 4);
  await host.client.setCooldown("anthropic", 0);
  const kept = await host.client.acquire({ providerId: "anthropic", agentId: "claude-keep" });
  await openWindow();
  const release = card(page, "anthropic").getByRole("button", { name: "Release claude-keep" });
  await release.focus();
  for (let i = 0; i < 8; i++) {
    const lease = await host.client.acquire({ providerId: "anthropic", agentId: `agent-${i}` });
    await expect(card(page, "anthropic").getByRole("list", { name: "Holding anthropic" })).toContainText(`agent-${i}`);
    await host.client.release(lease.leaseId, "success");
    await expect(card(page, "anthropic").getByRole("list", { name: "Holding anthropic" })).not.toContainText(`agent-${i}`);
    await expect(release).toBeFocused();
  }
  await host.client.release(kept.leaseId, "success");
  // Its own lease ended: focus moved to the card, not to the page.
  await expect(card(page, "anthropic").getByRole("heading", { name: "anthropic" })).toBeFocused();
});

test("stable order: a card that needs attention keeps its place, and the focused field stays where it was", async ({ page, host, openWindow }) => {
  for (const id of ["alpha", "beta", "gamma", "zeta"]) await host.client.setLimit(id, id === "zeta" ? 1 : 2);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWindow();
  const limit = card(page, "zeta").getByRole("spinbutton", { name: "Limit for zeta" });
  await limit.focus();
  const before = await limit.boundingBox();
  await host.client.acquire({ providerId: "zeta", agentId: "a" });
  const queued = host.client.acquire({ providerId: "zeta", agentId: "b", timeoutMs: 3_000 }).catch(() => undefined);
  await expect(card(page, "zeta").getByText("1 queued", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "1 queued agent" })).toBeVisible();
  expect(await page.locator(".card").evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")))).toEqual(["alpha", "beta", "gamma", "zeta"]);
  expect(await limit.boundingBox()).toEqual(before);
  await expect(limit).toBeFocused();
  await queued;
});

test("`Details for <id>` opens `<id> details`; Escape or `Close details` closes it and focus returns to the button", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await host.client.setLimit("openai", 2);
  await openWindow();
  const button = card(page, "anthropic").getByRole("button", { name: "Details for anthropic" });
  const details = page.getByRole("region", { name: "anthropic details" });
  await button.click();
  await expect(details).toBeVisible();
  await expect(details.getByRole("heading", { name: "anthropic" })).toBeFocused();
  await expect(details.getByRole("textbox", { name: "Upstream URL for anthropic" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);
  await expect(button).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(details).toBeVisible();
  await details.getByRole("button", { name: "Close details" }).click();
  await expect(details).toHaveCount(0);
  await expect(button).toBeFocused();
  // One at a time: another card's details replace these.
  await button.click();
  await card(page, "openai").getByRole("button", { name: "Details for openai" }).click();
  await expect(page.getByRole("region", { name: "openai details" })).toBeVisible();
  await expect(details).toHaveCount(0);
});
