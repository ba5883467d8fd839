import { expect, test } from "./support/fixtures";

const route = { targetId: "openai", runtimeId: "http", modelId: "gpt-5" };

test("an open route is listed with its reason and countdown, and Reset closes it", async ({ page, host, openWindow }) => {
  await host.client.routeOutcome(route, "run-1", "failure", "HTTP 529 overloaded");
  await openWindow();
  const table = page.getByRole("table", { name: "Routes" });
  await expect(table.getByRole("columnheader")).toHaveText(["Target", "Runtime", "Model", "State", "Remaining", "Reason", "Failures", "Actions"]);
  const row = table.getByRole("row").filter({ hasText: "gpt-5" });
  await expect(row.getByRole("cell")).toHaveText(["openai", "http", "gpt-5", "open", /^1[0-5] s$/, "HTTP 529 overloaded", "1", "Reset"]);
  const remaining = row.getByRole("cell").nth(4);
  const first = await remaining.textContent();
  await expect(remaining).not.toHaveText(first ?? "");

  await row.getByRole("button", { name: "Reset openai/http/gpt-5" }).click();
  await expect(row.getByRole("cell").nth(3)).toHaveText("closed");
  await expect(row.getByRole("button", { name: /^Reset/ })).toHaveCount(0);
  expect((await host.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
});

test("the breaker settings save from the window", async ({ page, host, openWindow }) => {
  await openWindow();
  const threshold = page.getByRole("spinbutton", { name: "Breaker threshold" });
  const cooldown = page.getByRole("textbox", { name: "Breaker open for" });
  await expect(threshold).toHaveValue("1");
  await threshold.fill("3");
  await threshold.press("Enter");
  await cooldown.fill("30 s");
  await cooldown.blur();
  await expect.poll(async () => (await host.client.routes()).settings).toEqual({ threshold: 3, cooldownMs: 30_000 });
});
