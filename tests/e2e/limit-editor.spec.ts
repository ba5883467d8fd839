import { card, countRequests, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

test("Enter saves the limit", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await limit.fill("5");
  await limit.press("Enter");
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(5);
  await expect(limit).toHaveValue("5");
});

test("leaving a changed limit field saves it", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await limit.fill("6");
  await limit.blur();
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(6);
});

test("a blur that changed nothing sends nothing and keeps the auto-reduction", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await rateLimit(host.client, "anthropic");
  await openWindow();
  const anthropic = card(page, "anthropic");
  const limit = anthropic.getByRole("spinbutton", { name: "Limit for anthropic" });
  await expect(limit).toHaveValue("2");
  const puts = countRequests(page, "PUT", "/concurrency/limits/");

  await limit.focus();
  await limit.blur();
  await limit.fill("4"); // edited, then put back: the field ends where it started
  await limit.fill("2");
  await limit.blur();
  await expect(anthropic.getByRole("alert")).toContainText("lowered from 3 to 2");
  expect((await host.client.status()).providers[0]?.autoReduced).toBe(true);
  // A real change afterwards proves the counter sees this field's saves.
  await limit.fill("4");
  await limit.press("Enter");
  await expect.poll(async () => (await host.client.limit("anthropic")).limit).toBe(4);
  expect(puts.count).toBe(1);
});

test("an out-of-range limit is explained next to the field and not sent", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  const puts = countRequests(page, "PUT", "/concurrency/limits/");
  const limit = card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" });
  await limit.fill("0");
  await limit.press("Enter");
  await expect(limit).toHaveAccessibleDescription("limit must be an integer from 1 to 10000 (got 0)");
  expect(puts.count).toBe(0);
  expect((await host.client.limit("anthropic")).limit).toBe(3);
});
