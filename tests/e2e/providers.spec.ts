import { card, countRequests, expect, openDetails, test } from "./support/fixtures";

test("a new user is told what to do, adds a provider and gets its card", async ({ page, host, openWindow }) => {
  await openWindow();
  await expect(page.getByText(/No providers yet/)).toBeVisible();
  // The token left the address bar once the window had it.
  expect(page.url()).toBe(`${host.url}/`);

  await page.getByRole("textbox", { name: "Provider id" }).fill("anthropic");
  await page.getByRole("spinbutton", { name: "New provider limit" }).fill("3");
  await page.getByRole("button", { name: "Add provider" }).click();

  await expect(card(page, "anthropic").getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("3");
  await expect(page.getByText(/No providers yet/)).toHaveCount(0);
  // Focus stays ready for the next one, and the addition is announced.
  await expect(page.getByRole("textbox", { name: "Provider id" })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Added anthropic with a limit of 3." })).toBeVisible();
  expect(await host.client.limit("anthropic")).toEqual({ providerId: "anthropic", limit: 3 });
});

test("an invalid id is refused next to its field and nothing is sent", async ({ page, host, openWindow }) => {
  await openWindow();
  const puts = countRequests(page, "PUT", "/concurrency/limits/");
  const id = page.getByRole("textbox", { name: "Provider id" });
  await id.fill("Not Valid!");
  await page.getByRole("button", { name: "Add provider" }).click();

  await expect(page.getByRole("status").filter({ hasText: "A provider id must be 1 to 64 lowercase letters" })).toBeVisible();
  await expect(id).toHaveAccessibleDescription(/A provider id must be 1 to 64 lowercase letters.*"Not Valid!"/);
  await expect(id).toBeFocused();
  await id.fill("");
  await page.getByRole("button", { name: "Add provider" }).click();
  await expect(id).toHaveAccessibleDescription("Type a provider id first, such as anthropic.");
  expect(puts.count).toBe(0);
  expect((await host.client.status()).providers).toEqual([]);
});

test("removing a provider asks once more, then its card goes", async ({ page, host, openWindow }) => {
  await host.client.setLimit("openai", 2);
  await host.client.setLimit("openai-2", 2);
  await openWindow();
  const openai = await openDetails(page, "openai");

  await openai.getByRole("button", { name: "Remove openai" }).click();
  await expect(openai.getByRole("button", { name: "Yes, remove openai" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(openai.getByRole("button", { name: "Remove openai" })).toBeFocused();
  await openai.getByRole("button", { name: "Remove openai" }).click();
  await openai.getByRole("button", { name: "Cancel" }).click();
  await expect(openai).toBeVisible();

  await openai.getByRole("button", { name: "Remove openai" }).click();
  await openai.getByRole("button", { name: "Yes, remove openai" }).click();
  await expect(openai).toHaveCount(0);
  await expect(card(page, "openai")).toHaveCount(0);
  await expect(card(page, "openai-2")).toBeVisible();
  await expect(card(page, "openai-2").getByRole("heading", { name: "openai-2" })).toBeFocused();
  expect((await host.client.status()).providers.map((p) => p.providerId)).toEqual(["openai-2"]);
});
