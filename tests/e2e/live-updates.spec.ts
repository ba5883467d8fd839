import { card, expect, test } from "./support/fixtures";

// SPEC §4: "every change made elsewhere appears within 250 ms". That is a promise to the user,
// so it is asserted at the SPEC's own bound (counted from the moment the HTTP change was
// answered); how fast it really is belongs to the bench (npm run bench).
const SPEC_VISIBLE_WITHIN_MS = 250;

test("changes made over HTTP appear within 250 ms", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toHaveValue("3");

  await host.client.setLimit("anthropic", 7);
  await expect(limit).toHaveValue("7", { timeout: SPEC_VISIBLE_WITHIN_MS });

  await host.client.setLimit("openai", 2);
  await expect(card(page, "openai")).toBeVisible({ timeout: SPEC_VISIBLE_WITHIN_MS });

  await host.client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "boom");
  await expect(page.getByRole("table", { name: "Routes" })).toContainText("boom", { timeout: SPEC_VISIBLE_WITHIN_MS });
  await expect(page.getByRole("list", { name: "Recent events" })).toContainText("Route openai / http / gpt-5 opened", {
    timeout: SPEC_VISIBLE_WITHIN_MS,
  });
});

test("after the host restarts the window says it is reconnecting, then shows live data again without a reload", async ({
  page,
  host,
  openWindow,
}) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  await page.evaluate("window.__sameDocument = true");

  await host.stop();
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting…" })).toBeVisible();
  await host.start();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();

  await host.client.setLimit("anthropic", 5);
  await expect(card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("5");
  expect(await page.evaluate("window.__sameDocument")).toBe(true);
});

test("a wrong token is explained instead of an empty window", async ({ page, host }) => {
  await page.goto(`${host.url}/#token=not-the-token`);
  await expect(page.getByRole("status").filter({ hasText: "This window's token was refused" })).toBeVisible();
  // Nothing of the dashboard behind it: no form that could not work anyway.
  await expect(page.getByRole("button", { name: "Add provider" })).toHaveCount(0);
  await expect(page.getByRole("status")).not.toContainText("`");
});

test("a window opened without a token says so, in other words than a wrong one", async ({ page, host }) => {
  await page.goto(`${host.url}/`);
  await expect(page.getByRole("status").filter({ hasText: "This window has no token" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("api-token");
  await expect(page.getByRole("button", { name: "Add provider" })).toHaveCount(0);
});
