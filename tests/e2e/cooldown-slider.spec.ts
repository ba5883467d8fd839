import { card, countRequests, expect, test } from "./support/fixtures";

const cooldownOf = async (host: { client: { cooldown(id: string): Promise<{ cooldownMs: number }> } }) =>
  (await host.client.cooldown("anthropic")).cooldownMs;

test("dragging the slider shows the value as it moves and saves exactly once on release", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const anthropic = card(page, "anthropic");
  const slider = anthropic.getByRole("slider", { name: "Cooldown for anthropic" });
  const field = anthropic.getByRole("spinbutton", { name: "Cooldown ms for anthropic" });
  await expect(slider).toHaveAttribute("aria-valuetext", "350 ms");
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
  const dragged = Number(await field.inputValue());
  expect(puts.count).toBe(0);
  await page.mouse.up();

  await expect.poll(() => cooldownOf(host)).toBe(dragged);
  expect(dragged % 10).toBe(0);
  expect(dragged).toBeGreaterThan(350);
  await expect(field).toHaveValue(String(dragged));
  expect(puts.count).toBe(1);
});

test("the slider is finer below 1 s: more than half its track is 0–1000 ms", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const anthropic = card(page, "anthropic");
  const slider = anthropic.getByRole("slider", { name: "Cooldown for anthropic" });
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.08, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, y, { steps: 8 });
  await page.mouse.up();
  // Half way along is still below a second; the old linear scale put 2500 ms there.
  await expect.poll(() => cooldownOf(host)).toBeLessThan(1_000);
  await slider.press("End");
  await expect.poll(() => cooldownOf(host)).toBe(5_000);
  await slider.press("ArrowLeft");
  await expect.poll(() => cooldownOf(host)).toBe(4_950); // 50 ms a step above 1 s
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
  await expect(slider).toHaveAttribute("aria-valuetext", "360 ms");
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
  await expect(slider).toHaveValue("180");
  await expect(field).toHaveValue("20000");

  // Tabbing over the slider at its end must not save 5000 over the real value.
  await slider.focus();
  await slider.press("Tab");
  await field.fill("700000");
  await field.press("Enter");
  await expect(field).toHaveAccessibleDescription("cooldownMs must be an integer from 0 to 600000 (got 700000)");
  expect(await cooldownOf(host)).toBe(20_000);
});

test("a new gesture while the last save is still on its way is not undone when that save lands", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const slider = card(page, "anthropic").getByRole("slider", { name: "Cooldown for anthropic" });
  // A slow host: the first save answers only after the next gesture has begun.
  let answerFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => (answerFirst = resolve));
  let saves = 0;
  await page.route("**/concurrency/cooldown/**", async (route) => {
    if (route.request().method() === "PUT" && saves++ === 0) await firstHeld;
    await route.continue();
  });
  await slider.focus();
  await slider.press("ArrowRight");
  await expect.poll(() => saves).toBe(1); // the 360 ms save is on its way, held
  await slider.press("End");
  answerFirst();
  await expect.poll(() => cooldownOf(host)).toBe(5_000);
  await expect(slider).toHaveAttribute("aria-valuetext", "5 s");
});
