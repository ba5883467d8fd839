// axe-core over the demo's states (queue, 429 pause, banner, open route; then after Dismiss),
// in light and dark: no violations.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/demo";

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  // The checks the issue named did run (a rule with nothing to check is neither pass nor violation).
  expect(results.passes.map((p) => p.id)).toEqual(expect.arrayContaining(["color-contrast", "heading-order"]));
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe finds no violations in the demo's states (${colorScheme})`, async ({ page, openDemo }) => {
    test.setTimeout(90_000); // three axe passes over the running demo
    await page.emulateMedia({ colorScheme });
    await openDemo();
    const banner = page.getByRole("alert");
    await expect(banner).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("table", { name: "Routes" })).toBeVisible({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);

    // An explanation showing, the details open with a confirmation in them, the banner dismissed.
    await page.getByText("Cooldown", { exact: true }).first().focus();
    await page.getByRole("button", { name: /^Details for / }).first().click();
    await page.getByRole("button", { name: /^Remove / }).first().click();
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Close details" }).click();
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByRole("button", { name: /^Restore limit to/ }).first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}
