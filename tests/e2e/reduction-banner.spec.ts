import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

test("a 429 shows the banner; Dismiss survives a reload; a new reduction shows it again; Restore brings the limit back", async ({
  page,
  host,
  openWindow,
}) => {
  await host.client.setLimit("anthropic", 4);
  await openWindow();
  const anthropic = card(page, "anthropic");
  const banner = anthropic.getByRole("alert");
  const badge = anthropic.getByText("auto-reduced from 4", { exact: true });

  await rateLimit(host.client, "anthropic", 30_000);
  await expect(banner).toContainText("Limit for anthropic lowered from 4 to 3 after a rate limit (429).");
  await expect(banner.getByRole("button", { name: "Restore limit to 4" })).toBeVisible();
  await expect(badge).toBeVisible();

  // The pause counts down locally from its absolute end.
  const countdown = anthropic.locator(".countdown");
  const first = await countdown.textContent();
  expect(first).toMatch(/^\d+ s$/);
  await expect(countdown).not.toHaveText(first ?? "");

  await banner.getByRole("button", { name: "Dismiss" }).click();
  await expect(banner).toHaveCount(0);
  await expect(badge).toBeVisible();
  // The original limit stays one click away after the banner is gone.
  await expect(anthropic.getByRole("button", { name: "Restore limit to 4" })).toBeFocused();
  await expect.poll(async () => (await host.client.status()).providers[0]?.noticeDismissed).toBe(true);

  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  await expect(anthropic.getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("3");
  await expect(badge).toBeVisible();
  await expect(banner).toHaveCount(0);

  // A reduction needs the provider out of its pause: lift it by hand.
  await anthropic.getByRole("button", { name: "Resume now" }).click();
  await expect(anthropic.getByText(/^paused ·/)).toHaveCount(0);
  await expect(anthropic.getByText("admitting", { exact: true })).toBeVisible();
  await expect(anthropic.getByRole("spinbutton", { name: "Limit for anthropic" })).toBeFocused();

  await rateLimit(host.client, "anthropic", 30_000);
  await expect(banner).toContainText("lowered from 4 to 2"); // the notice names the original limit
  const restore = banner.getByRole("button", { name: "Restore limit to 4" });
  await restore.click();

  await expect(banner).toHaveCount(0);
  await expect(anthropic.getByText(/^auto-reduced/)).toHaveCount(0);
  await expect(anthropic.getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("4");
  await expect(anthropic.getByRole("spinbutton", { name: "Limit for anthropic" })).toBeFocused();
  const entry = (await host.client.status()).providers[0];
  expect(entry).toMatchObject({ limit: 4, autoReduced: false });
});

test("Needs you lists the reduction with `Restore limit to N` and `Keep N`; Keep N accepts the lower limit", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 4);
  await host.client.setLimit("openai", 2);
  await openWindow();
  const needs = page.getByRole("region", { name: "Needs you" });
  await expect(needs.getByText("Nothing needs you", { exact: true })).toBeVisible();
  const cards = await page.locator(".card").evaluateAll((all) => all.map((c) => c.getBoundingClientRect().top));

  await rateLimit(host.client, "anthropic", 30_000);
  const item = needs.getByRole("listitem", { name: "anthropic: limit lowered from 4 to 3" });
  await expect(item).toContainText("Limit for anthropic lowered from 4 to 3 after a rate limit (429).");
  await expect(item.getByRole("button", { name: "Restore limit to 4" })).toBeVisible();
  // Newest first: the pause came with the reduction, both are listed, and no card moved.
  await expect(needs.getByRole("listitem", { name: "anthropic: paused" })).toBeVisible();
  expect(await page.locator(".card").evaluateAll((all) => all.map((c) => c.getBoundingClientRect().top))).toEqual(cards);

  await item.getByRole("button", { name: "Keep 3" }).click();
  await expect(item).toHaveCount(0);
  await expect(card(page, "anthropic").getByText(/^auto-reduced/)).toHaveCount(0);
  await expect(card(page, "anthropic").getByRole("alert")).toHaveCount(0);
  expect((await host.client.status()).providers.find((p) => p.providerId === "anthropic")).toMatchObject({ limit: 3, autoReduced: false });
  expect((await host.client.status()).providers[0]?.notice).toBeUndefined();
  await expect(page).toHaveTitle("Headroom — anthropic paused");
});
