// SPEC §7 on a host without Redis: the share switch is there but cannot share, says why on
// hover and focus, and the command line gets the host's refusal naming HEADROOM_REDIS_URL.
import AxeBuilder from "@axe-core/playwright";
import { countRequests, expect, openDetails, test } from "./support/fixtures";
import { headroomCli, NO_REDIS_EXPLANATION, sharedUi } from "./support/shared-providers";

test("without Redis the switch explains itself, sends nothing, and `providers share` is refused", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 3);
  await openWindow();
  await openDetails(page, "anthropic");
  const ui = sharedUi(page);
  const toggle = ui.shareSwitch("anthropic");
  const puts = countRequests(page, "PUT", "/concurrency/providers/");

  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(toggle).toHaveAttribute("aria-disabled", "true");
  await expect(toggle).toHaveAccessibleDescription(NO_REDIS_EXPLANATION);
  const explanation = page.getByRole("tooltip").filter({ hasText: NO_REDIS_EXPLANATION });
  await expect(explanation).toBeHidden();
  await toggle.hover();
  await expect(explanation).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(explanation).toBeHidden();

  // Reached by keyboard like any control, and inert under Space and Enter as under a click.
  await page.getByRole("spinbutton", { name: "Daily budget dollars for anthropic" }).focus(); // the last setting field
  await page.keyboard.press("Tab");
  await expect(toggle).toBeFocused();
  await expect(explanation).toBeVisible();
  await page.keyboard.press("Space");
  await page.keyboard.press("Enter");
  await toggle.click({ force: true }); // Playwright will not click what says aria-disabled; a person can
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  expect(puts.count).toBe(0);
  await expect(ui.redisState()).toHaveCount(0);

  const refused = await headroomCli(host, ["providers", "share", "anthropic"]);
  expect(refused).toMatchObject({ code: 64, stdout: "" });
  expect(refused.stderr).toMatch(/^headroom: shared .*HEADROOM_REDIS_URL/);
  expect((await host.client.provider("anthropic")).shared).toBeFalsy();
  // The window still says local, and a change made elsewhere still reaches it.
  await host.client.setLimit("anthropic", 5);
  await expect(page.getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveValue("5");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(ui.hostsBadge("anthropic")).toHaveCount(0);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe finds no violations with the switch's explanation showing (${colorScheme})`, async ({ page, host, openWindow }) => {
    await page.emulateMedia({ colorScheme });
    await host.client.setLimit("anthropic", 3);
    await openWindow();
    await openDetails(page, "anthropic");
    await sharedUi(page).shareSwitch("anthropic").focus();
    await expect(page.getByRole("tooltip").filter({ hasText: NO_REDIS_EXPLANATION })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}
