import { card, countRequests, expect, test } from "./support/fixtures";

const cooldownOf = async (host: { client: { cooldown(id: string): Promise<{ cooldownMs: number }> } }) =>
  (await host.client.cooldown("anthropic")).cooldownMs;

test("dragging the slider shows the value as it moves and saves exactly once on release", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const anthropic = card(page, "anthropic");
  const slider = anthropic.getByRole("slider", { name: "Cooldown for anthropic" });
  const field = anthropic.getByRole("spinbutton", { name: "Cooldown ms for anthropic" });
  await expect(slider).toHaveValue("350");
  const puts = countRequests(page, "PUT", "/concurrency/cooldown/");

  const box = await slider.boundingBox();
  if (!box) throw new Error("the slider is not on screen");
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.07, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, y, { steps: 12 });
  // Still held: the value shows, nothing is saved yet.
  await expect(field).not.toHaveValue("350");
  await page.mouse.move(box.x + box.width * 0.55, y, { steps: 12 });
  const dragged = Number(await slider.inputValue());
  await expect(field).toHaveValue(String(dragged));
  expect(puts.count).toBe(0);
  await page.mouse.up();

  await expect.poll(() => cooldownOf(host)).toBe(dragged);
  expect(dragged % 10).toBe(0);
  expect(dragged).toBeGreaterThan(350);
  await expect(slider).toHaveValue(String(dragged));
  expect(puts.count).toBe(1);
});

test("arrow keys move the slider by 10 ms and save once they stop", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const slider = card(page, "anthropic").getByRole("slider", { name: "Cooldown for anthropic" });
  const puts = countRequests(page, "PUT", "/concurrency/cooldown/");

  await slider.focus();
  await slider.press("ArrowRight");
  await slider.press("ArrowRight");
  await slider.press("ArrowLeft");
  await expect(slider).toHaveValue("360");
  await expect.poll(() => cooldownOf(host)).toBe(360);
  // A later key is a new gesture: saved once more.
  await slider.press("ArrowRight");
  await expect.poll(() => cooldownOf(host)).toBe(370);
  expect(puts.count).toBe(2);
});

test("the field beside the slider takes any allowed value; above 5000 the slider rests at its end", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const anthropic = card(page, "anthropic");
  const slider = anthropic.getByRole("slider", { name: "Cooldown for anthropic" });
  const field = anthropic.getByRole("spinbutton", { name: "Cooldown ms for anthropic" });

  await field.fill("20000");
  await field.press("Enter");
  await expect.poll(() => cooldownOf(host)).toBe(20_000);
  await expect(slider).toHaveValue("5000");
  await expect(field).toHaveValue("20000");

  // Tabbing over the slider at its end must not save 5000 over the real value.
  await slider.focus();
  await slider.press("Tab");
  await field.fill("700000");
  await field.press("Enter");
  await expect(field).toHaveAccessibleDescription("cooldownMs must be an integer from 0 to 600000 (got 700000)");
  expect(await cooldownOf(host)).toBe(20_000);
});
