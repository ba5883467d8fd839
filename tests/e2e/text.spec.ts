// SPEC §4 text: durations as people say them, and terms that explain themselves on hover
// and on keyboard focus.
import { card, expect, openDetails, test } from "./support/fixtures";

test("durations read as people say them; cooldown, recycling and breaker settings explain themselves", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await host.client.setCooldown("anthropic", 1_200);
  await host.client.setRouteSettings({ cooldownMs: 150_000 });
  await openWindow();
  const anthropic = card(page, "anthropic");
  await expect(anthropic.getByText("cooldown 1.2 s after each release")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Breaker open for" })).toHaveValue("2 min 30 s");
  await expect(anthropic.getByRole("slider", { name: "Cooldown for anthropic" })).toHaveAttribute("aria-valuetext", "1.2 s");

  // Keyboard focus shows the explanation, and it is the term's description.
  const details = await openDetails(page, "anthropic");
  await expect(details.getByRole("definition").filter({ hasText: "1.2 s" })).toBeVisible();
  const recycling = details.getByText("Recycling", { exact: true });
  await recycling.focus();
  await expect(details.getByRole("tooltip").filter({ hasText: "Slots just released" })).toBeVisible();
  await expect(recycling).toHaveAccessibleDescription(/resting for the cooldown/);
  // Hover does too.
  await page.getByText("Open for", { exact: true }).hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "half-open" })).toBeVisible();
  await anthropic.locator(".term", { hasText: "Cooldown" }).hover();
  await expect(anthropic.getByRole("tooltip").filter({ hasText: "slot rests this long" })).toBeVisible();
});
