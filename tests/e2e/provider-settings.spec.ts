// The details panel's plain settings (shared/provider-settings.ts SETTINGS), one generic field
// each: a duration in words, a choice, dollars. What is typed reaches the host, a wrong value says
// why and sends nothing, an empty field is off.
import { expect, openDetails, test } from "./support/fixtures";

test("wait-for-reset, paid extra usage and the daily budget are set in the details", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const details = await openDetails(page, "anthropic");

  const wait = details.getByRole("textbox", { name: "Wait through a near reset for anthropic" });
  await expect(wait).toHaveValue("2 min");
  await wait.fill("soon");
  await wait.press("Enter");
  await expect(wait).toHaveAccessibleDescription(/Type a duration such as 90 s or 5 min/);
  await wait.fill("11 min");
  await wait.press("Enter");
  await expect(wait).toHaveAccessibleDescription(/waitForResetMs must be an integer from 0 to 600000/);
  expect((await host.client.provider("anthropic")).waitForResetMs).toBe(120_000);
  await wait.fill("5 min");
  await wait.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).waitForResetMs).toBe(300_000);
  await wait.fill("");
  await wait.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).waitForResetMs).toBe(0);
  await expect(wait).toHaveValue("");
  await expect(wait).toHaveAttribute("placeholder", "off");

  const overage = details.getByRole("combobox", { name: "Paid extra usage for anthropic" });
  await expect(overage).toHaveValue("allow");
  await overage.selectOption("stop");
  await expect.poll(async () => (await host.client.provider("anthropic")).overage).toBe("stop");

  const budget = details.getByRole("spinbutton", { name: "Daily budget dollars for anthropic" });
  await expect(budget).toHaveValue("");
  await budget.fill("$20");
  await budget.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).dailyBudgetUsd).toBe(20);
  await expect(details.getByText("Daily budget ($) · $20.00")).toBeVisible();
  await budget.fill("");
  await budget.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).dailyBudgetUsd).toBeUndefined();
});
