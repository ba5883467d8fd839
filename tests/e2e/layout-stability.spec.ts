// SPEC §4: the layout does not jump while agents come and go. Measured as the browser does
// (Layout Instability API): cumulative layout shift over the demo's first 20 s.
import { expect, test } from "./support/demo";

test("cumulative layout shift stays below 0.05 over the demo's first 20 s", async ({ page, openDemo }) => {
  test.setTimeout(60_000);
  // A string: the page's DOM types are not this file's (Node) types.
  await page.addInitScript(`
    const record = { total: 0, shifts: 0, log: [] };
    window.__cls = record;
    const describe = (node) =>
      node instanceof Element ? node.tagName + "." + node.className + "[" + (node.getAttribute("aria-label") ?? "") + "]" : String(node?.nodeName);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        record.total += entry.value;
        record.shifts += 1;
        record.log.push(entry.value.toFixed(4) + " @" + Math.round(entry.startTime) + " " + entry.sources
          .map((s) => describe(s.node) + " " + Math.round(s.previousRect.y) + "->" + Math.round(s.currentRect.y))
          .join(" | "));
      }
    }).observe({ type: "layout-shift", buffered: true });
  `);
  await openDemo();
  // The demo's first 20 s: a queue, a 429 pause, the banner, a route opening and closing.
  await expect(page.getByRole("alert")).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(20_000); // a measurement window, not a wait for state
  const cls = (await page.evaluate("window.__cls")) as { total: number; shifts: number; log: string[] };
  // What moved, so a failure says where to look.
  expect(cls.total, cls.log.join("\n")).toBeLessThan(0.05);
  const largest = [...cls.log].sort().reverse().slice(0, 5);
  console.log(`CLS over the demo's first 20 s: ${cls.total.toFixed(4)} (${cls.shifts} shifts); largest:\n${largest.join("\n")}`);
});
