// SPEC §4 "Pace": a plan-window meter shows how much of the window's time has gone beside how
// much is used, in words on hover and for screen readers, amber when use runs ahead by 15
// points or more. A known reading comes through the real proxy from a fake provider; the time
// gone is the host's clock against the window's reset.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { startFakeProvider } from "../../demo/fake-provider";
import { startServe } from "../support/serve-process";

const HOUR = 3_600_000;
const epochS = (ms: number) => String(Math.ceil(ms / 1000));

test("a 5-hour window 62 % used with 3 hours left reads ahead of pace and turns amber; a 7-day one reads on pace", async ({ page }) => {
  test.setTimeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-pace-"));
  const fake = await startFakeProvider();
  const host = await startServe({ dataDir });
  try {
    await host.client.setLimit("anthropic", 2);
    await host.client.setProvider("anthropic", { upstream: fake.url });
    const now = Date.now();
    fake.script({
      status: 200,
      body: { type: "message", content: [{ type: "text", text: "hi" }] },
      headers: {
        "anthropic-ratelimit-unified-status": "allowed",
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-status": "allowed",
        "anthropic-ratelimit-unified-5h-utilization": "0.62",
        "anthropic-ratelimit-unified-5h-reset": epochS(now + 3 * HOUR),
        "anthropic-ratelimit-unified-7d-status": "allowed",
        "anthropic-ratelimit-unified-7d-utilization": "0.10",
        "anthropic-ratelimit-unified-7d-reset": epochS(now + 6 * 24 * HOUR),
        "anthropic-ratelimit-unified-overage-status": "rejected",
      },
    });
    const answer = await fetch(`${await host.proxyOrigin()}/anthropic/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "test" },
      body: JSON.stringify({ model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(answer.status).toBe(200);

    await page.goto(host.windowUrl);
    const card = page.getByRole("region", { name: "anthropic", exact: true });
    const fiveHour = card.getByRole("meter", { name: "5-hour window used for anthropic" });
    const sevenDay = card.getByRole("meter", { name: "7-day window used for anthropic" });
    // 3 of 5 hours left: 40 % of the time gone, 22 points behind the 62 % used.
    await expect(fiveHour).toHaveAttribute("aria-valuetext", "62 % used, 40 % of the time gone: ahead of pace");
    // 6 of 7 days left: 14 % gone beside 10 % used.
    await expect(sevenDay).toHaveAttribute("aria-valuetext", "10 % used, 14 % of the time gone: on pace");

    // The same words on hover; the amber and the arrow on the 5-hour row only.
    // (`has` is looked up inside each row, so it starts from the page, not the card.)
    const fiveRow = card.locator(".meter-row").filter({ has: page.getByRole("meter", { name: "5-hour window used for anthropic" }) });
    const sevenRow = card.locator(".meter-row").filter({ has: page.getByRole("meter", { name: "7-day window used for anthropic" }) });
    await expect(fiveRow).toHaveAttribute("title", "62 % used, 40 % of the time gone: ahead of pace");
    await expect(fiveRow).toHaveClass(/pace-ahead/);
    await expect(fiveRow.locator(".meter-value")).toContainText("▲ 62 %");
    await expect(sevenRow).not.toHaveClass(/pace-ahead/);

    // The mark stands where the time has got to: 40 % along the 5-hour meter.
    const at = await fiveRow.evaluate((row) => {
      const meter = row.querySelector("meter")!.getBoundingClientRect();
      const mark = row.querySelector(".pace-mark")!.getBoundingClientRect();
      return (mark.left + mark.width / 2 - meter.left) / meter.width;
    });
    expect(at).toBeGreaterThan(0.37);
    expect(at).toBeLessThan(0.43);
  } finally {
    await host.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
