// SPEC §4 at scale: stable order by id, a filter, open routes first, no run ids, the width used.
import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

test("with 43 providers the cards stay in id order whatever needs attention, and a filter narrows them", async ({ page, host, openWindow }) => {
  test.setTimeout(60_000);
  for (let i = 0; i < 40; i++) await host.client.setLimit(`p-${String(i).padStart(2, "0")}`, 2);
  await host.client.setLimit("queued-one", 1);
  await host.client.setLimit("reduced-one", 3);
  await host.client.setLimit("paused-one", 4);
  await rateLimit(host.client, "paused-one", 60_000);
  await rateLimit(host.client, "reduced-one", 1);
  await host.client.resume("reduced-one");
  await host.client.acquire({ providerId: "queued-one", agentId: "a" });
  const queued = host.client.acquire({ providerId: "queued-one", agentId: "b", timeoutMs: 15_000 }).catch(() => undefined);
  await openWindow();

  const cards = page.locator(".card");
  await expect(cards).toHaveCount(43);
  await expect(cards.nth(0)).toHaveAttribute("aria-label", "p-00");
  await expect(cards.nth(40)).toHaveAttribute("aria-label", "paused-one");
  await expect(cards.nth(41)).toHaveAttribute("aria-label", "queued-one");
  await expect(cards.nth(42)).toHaveAttribute("aria-label", "reduced-one");
  // What needs attention is in Needs you instead.
  const needs = page.getByRole("region", { name: "Needs you" });
  await expect(needs.getByRole("listitem", { name: "paused-one: paused" })).toBeVisible();
  await expect(needs.getByRole("listitem", { name: "reduced-one: limit lowered from 3 to 2" })).toBeVisible();

  // `/` focuses the filter; Escape clears it.

  const filter = page.getByRole("searchbox", { name: "Filter providers" });
  await page.locator("body").press("/");
  await expect(filter).toBeFocused();
  await page.keyboard.type("p-1");
  await expect(cards).toHaveCount(10);
  await expect(card(page, "p-13")).toBeVisible();
  await filter.fill("nothing-like-this");
  await expect(page.getByText("No provider matches the filter.")).toBeVisible();
  await filter.press("Escape");
  await expect(filter).toHaveValue("");
  await expect(cards).toHaveCount(43);
  await queued;
});

test("open and half-open routes come first; a half-open route says `probe in progress`, never a run id", async ({ page, host, openWindow }) => {
  test.setTimeout(60_000);
  // A route that rested: one probe run holds it half-open.
  await host.client.setRouteSettings({ threshold: 1, cooldownMs: 200 });
  await host.client.routeOutcome({ targetId: "u", runtimeId: "http", modelId: "probe" }, "run-failing", "failure", "HTTP 500");
  await expect.poll(async () => (await host.client.routeAdmit({ targetId: "u", runtimeId: "http", modelId: "probe" }, "run-3f9c2a71")).admitted, { timeout: 5_000 }).toBe(true);
  await host.client.setRouteSettings({ cooldownMs: 300_000 });
  for (let i = 0; i < 40; i++) await host.client.routeOutcome({ targetId: "t", runtimeId: "http", modelId: `m-${String(i).padStart(2, "0")}` }, `ok-${i}`, "success");
  for (const i of ["07", "21", "33"]) await host.client.routeOutcome({ targetId: "t", runtimeId: "http", modelId: `m-${i}` }, `bad-${i}`, "failure", "HTTP 529");
  await openWindow();

  const rows = page.getByRole("table", { name: "Routes" }).getByRole("row");
  await expect(rows).toHaveCount(42);
  const states = await rows.locator("td:nth-child(4)").allTextContents();
  expect(states.slice(0, 4).map((s) => s.replace(/The route.*/, ""))).toEqual(["open", "open", "open", "half-open"]);
  const probe = rows.filter({ hasText: "probe" });
  await expect(probe.getByRole("cell").nth(4)).toHaveText("probe in progress");
  await expect(probe).not.toContainText("run-3f9c2a71");
});

test("at 1920 px the cards fill the width beside the side column", async ({ page, host, openWindow }) => {
  for (const id of ["a", "b", "c", "d"]) await host.client.setLimit(id, 2);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openWindow();
  const boxes = await Promise.all(["a", "b", "c", "d"].map(async (id) => (await card(page, id).boundingBox())!));
  expect(new Set(boxes.map((box) => Math.round(box.y))).size).toBe(1); // one row
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  expect(right).toBeGreaterThan(1920 * 0.4);
  const side = (await page.getByRole("region", { name: "Needs you" }).boundingBox())!;
  expect(side.x).toBeGreaterThan(1920 * 0.8);
});
