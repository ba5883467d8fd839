import { card, expect, test } from "./support/fixtures";

// SPEC §4 promises every change made elsewhere within 250 ms. Here we check that the changes
// arrive at all, without a reload (waiting as long as a loaded machine needs); how fast they
// arrive is measured in `npm run bench -- ui` (HTTP change → DOM, p95 and max against 250 ms),
// because a timed assertion here would pass or fail with the machine's load.
test("changes made over HTTP appear in the open window without a reload", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  await page.evaluate("window.__sameDocument = true");
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toHaveValue("3");

  await host.client.setLimit("anthropic", 7);
  await expect(limit).toHaveValue("7");

  await host.client.setLimit("openai", 2);
  await expect(card(page, "openai")).toBeVisible();

  await host.client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "boom");
  await expect(page.getByRole("table", { name: "Routes" })).toContainText("boom");
  await expect(page.getByRole("list", { name: "Recent events" })).toContainText("Route openai / http / gpt-5 opened");
  expect(await page.evaluate("window.__sameDocument")).toBe(true);
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
