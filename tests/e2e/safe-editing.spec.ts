// SPEC §4 "Safe editing": nothing the user did not mean to change is sent.
import { card, countRequests, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

test("Enter on an unchanged limit sends nothing and keeps the auto-reduction", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await rateLimit(host.client, "anthropic");
  await openWindow();
  const anthropic = card(page, "anthropic");
  const limit = anthropic.getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toHaveValue("2");
  const puts = countRequests(page, "PUT", "/concurrency/limits/");

  await limit.click();
  await limit.press("Enter");
  await limit.fill("2.0"); // the same number, written differently
  await limit.press("Enter");
  await limit.blur();
  await expect(anthropic.getByRole("button", { name: "Restore limit to 3" })).toBeVisible();
  await expect(anthropic.getByText("auto-reduced from 3", { exact: true })).toBeVisible();
  expect((await host.client.status()).providers[0]).toMatchObject({ limit: 2, autoReduced: true });
  // A real change afterwards proves the counter sees this field's saves.
  await limit.fill("4");
  await limit.press("Enter");
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(4);
  expect(puts.count).toBe(1);
});

test("the mouse wheel over a focused number field changes nothing", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await rateLimit(host.client, "anthropic");
  await openWindow();
  const anthropic = card(page, "anthropic");
  const limit = anthropic.getByRole("spinbutton", { name: "Limit for anthropic" });
  const cooldown = anthropic.getByRole("spinbutton", { name: "Cooldown ms for anthropic" });
  const puts = countRequests(page, "PUT", "/concurrency/");

  for (const field of [limit, cooldown]) {
    const before = await field.inputValue();
    await field.click();
    await field.hover();
    await page.mouse.wheel(0, 120);
    await page.mouse.wheel(0, -240);
    await expect(field).toHaveValue(before);
    await page.getByRole("heading", { name: "Route breakers" }).click(); // leaves the field
  }
  expect(puts.count).toBe(0);
  expect((await host.client.status()).providers[0]).toMatchObject({ limit: 2, autoReduced: true, cooldownMs: 350 });
});

test("a number field steps with its own arrow keys", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await limit.focus();
  await limit.press("ArrowUp");
  await limit.press("ArrowUp");
  await expect(limit).toHaveValue("5");
  await limit.press("Enter");
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(5);
});

test("after Dismiss the card keeps `Restore limit to N`, and it restores", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 4);
  await rateLimit(host.client, "anthropic");
  await openWindow();
  const anthropic = card(page, "anthropic");
  await anthropic.getByRole("alert").getByRole("button", { name: "Dismiss" }).click();
  await expect(anthropic.getByRole("alert")).toHaveCount(0);
  await expect(anthropic.getByText("auto-reduced from 4", { exact: true })).toBeVisible();
  await page.reload();
  const restore = anthropic.getByRole("button", { name: "Restore limit to 4" });
  await expect(restore).toHaveCount(1);
  await restore.click();
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(4);
  await expect(restore).toHaveCount(0);
});

test("slider arrow keys save once when the keys stop, not once per key", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const slider = card(page, "anthropic").getByRole("slider", { name: "Cooldown for anthropic" });
  const puts = countRequests(page, "PUT", "/concurrency/cooldown/");
  await slider.focus();
  // Auto-repeat sends keydowns without keyups; each key press here fires the native change too.
  for (let i = 0; i < 20; i++) await page.keyboard.down("ArrowRight");
  await page.keyboard.up("ArrowRight");
  await slider.press("ArrowLeft");
  await expect(page.getByRole("spinbutton", { name: "Cooldown ms for anthropic" })).toHaveValue("540");
  await expect.poll(async () => (await host.client.cooldown("anthropic")).cooldownMs).toBe(540);
  await expect(slider).toHaveAttribute("aria-valuetext", "540 ms");
  expect(puts.count).toBe(1);
});
