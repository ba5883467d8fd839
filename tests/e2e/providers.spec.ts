import { card, countRequests, expect, test } from "./support/fixtures";

test("a new user is told what to do, adds a provider and gets its card", async ({ page, host, openWindow }) => {
  await openWindow();
  await expect(page.getByText(/add a provider, or run npm run demo/)).toBeVisible();
  // The token left the address bar once the window had it.
  expect(page.url()).toBe(`${host.url}/`);

  await page.getByRole("textbox", { name: "Provider id" }).fill("anthropic");
  await page.getByRole("spinbutton", { name: "New provider limit" }).fill("3");
  await page.getByRole("button", { name: "Add provider" }).click();

  await expect(card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("3");
  await expect(page.getByText(/add a provider, or run npm run demo/)).toHaveCount(0);
  expect(await host.client.limit("anthropic")).toEqual({ providerId: "anthropic", limit: 3 });
});

test("an invalid id is refused next to its field and nothing is sent", async ({ page, host, openWindow }) => {
  await openWindow();
  const puts = countRequests(page, "PUT", "/concurrency/limits/");
  const id = page.getByRole("textbox", { name: "Provider id" });
  await id.fill("Not Valid!");
  await page.getByRole("button", { name: "Add provider" }).click();

  await expect(page.getByRole("status").filter({ hasText: "providerId must be 1 to 64 lowercase letters" })).toBeVisible();
  await expect(id).toHaveAccessibleDescription(/providerId must be 1 to 64 lowercase letters.*"Not Valid!"/);
  expect(puts.count).toBe(0);
  expect((await host.client.status()).providers).toEqual([]);
});

test("removing a provider asks once more, then its card goes", async ({ page, host, openWindow }) => {
  await host.client.setLimit("openai", 2);
  await host.client.setLimit("openai-2", 2);
  await openWindow();
  const openai = card(page, "openai");

  await openai.getByRole("button", { name: "Remove openai" }).click();
  await openai.getByRole("button", { name: "Cancel" }).click();
  await expect(openai).toBeVisible();

  await openai.getByRole("button", { name: "Remove openai" }).click();
  await openai.getByRole("button", { name: "Yes, remove openai" }).click();
  await expect(openai).toHaveCount(0);
  await expect(card(page, "openai-2")).toBeVisible();
  expect((await host.client.status()).providers.map((p) => p.providerId)).toEqual(["openai-2"]);
});
