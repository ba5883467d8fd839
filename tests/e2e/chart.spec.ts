// SPEC §4: the load chart is drawn from the host's history, so it is full when the window opens.
import { card, expect, test } from "./support/fixtures";

const distinctYs = (points: string | null) => new Set((points ?? "").trim().split(/\s+/).filter(Boolean).map((p) => p.split(",")[1])).size;

test("the chart is filled on open from /series, with labelled axes, and switches to the last hour", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await expect.poll(async () => (await host.client.series()).providers.anthropic?.at.length ?? 0, { timeout: 8_000 }).toBeGreaterThan(0);
  // A change the window cannot have seen itself: it happened before it opened.
  await host.client.setLimit("anthropic", 5);
  await host.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
  await expect.poll(async () => (await host.client.series()).providers.anthropic?.limit.at(-1), { timeout: 8_000 }).toBe(5);

  const seriesRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/series") seriesRequests.push(new URL(request.url()).search);
  });
  await openWindow();
  const chart = card(page, "anthropic").getByRole("img", { name: /^anthropic: active, queued and limit over the last 5 minutes/ });
  await expect(chart).toHaveAccessibleName(/now 1 active, 0 queued, limit 5$/);
  await expect.poll(async () => distinctYs(await chart.locator(".chart-limit").getAttribute("points"))).toBe(2); // 2, then 5
  await expect(chart).toContainText("−5 min");
  await expect(chart).toContainText("now");
  expect(seriesRequests).toContain("?minutes=5");

  // The full card width.
  const cardBox = (await card(page, "anthropic").boundingBox())!;
  const chartBox = (await chart.boundingBox())!;
  expect(chartBox.width).toBeGreaterThan(cardBox.width - 40);

  await page.getByRole("group", { name: "Chart range" }).getByRole("button", { name: "1 h" }).click();
  await expect(card(page, "anthropic").getByRole("img", { name: /over the last hour/ })).toContainText("−60 min");
  expect(seriesRequests).toContain("?minutes=60");
});
