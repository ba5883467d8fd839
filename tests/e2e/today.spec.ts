// SPEC §4 "Today" and the budget meter (§9) against a real host: a known usage state — one
// agent seeded in the data folder's per-day counter before the host starts, two priced answers
// through the proxy from a fake provider on a plan — reads in the window as computed by hand.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { startFakeProvider } from "../../demo/fake-provider";
import { localDay } from "../../electron/engine/local-day";
import { startServe } from "../support/serve-process";

const HOUR = 3_600_000;
const epochS = (ms: number) => String(Math.ceil(ms / 1000));

function seed(dataDir: string): void {
  // Earlier today: planner in ~/src/api cost $1.25 (as the host counted it then).
  const row = { agent: "planner · ~/src/api", project: "~/src/api", requests: 3, rateLimited: 0, errors: 0, tokens: { input: 1000, output: 500, cacheRead: 0, cacheWrite: 0 }, costUsd: 1.25, unpriced: 0 };
  mkdirSync(join(dataDir, "usage"), { recursive: true });
  writeFileSync(join(dataDir, "usage", "days.json"), JSON.stringify({ schemaVersion: 2, days: { [localDay(Date.now()).date]: { anthropic: [row] } } }));
}

test("Today shows each agent's and project's cost (API-equivalent on a plan), the window share and tokens per hour", async ({ page }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-today-"));
  seed(dataDir);
  const fake = await startFakeProvider();
  const host = await startServe({ dataDir });
  try {
    await host.client.setLimit("anthropic", 2);
    await host.client.setProvider("anthropic", { upstream: fake.url });
    const now = Date.now();
    const answer = {
      status: 200,
      body: { type: "message", model: "claude-sonnet-4-5", content: [{ type: "text", text: "hi" }], usage: { input_tokens: 10_000, output_tokens: 2_000 } },
      headers: {
        "anthropic-ratelimit-unified-status": "allowed",
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-status": "allowed",
        "anthropic-ratelimit-unified-5h-utilization": "0.62",
        "anthropic-ratelimit-unified-5h-reset": epochS(now + 3 * HOUR),
      },
    };
    fake.script(answer, answer);
    for (let i = 0; i < 2; i++) {
      const sent = await fetch(`${await host.proxyOrigin()}/anthropic/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "test", "x-headroom-agent": "reviewer" },
        body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(sent.status).toBe(200);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.windowUrl);
    const today = page.getByRole("region", { name: "Today" });
    // On a plan (the 5-hour reading) every figure is API-equivalent, and the region says what that means.
    await expect(today).toContainText("on a plan, costs are API-equivalent: what the API would charge");
    // claude-sonnet-4-5 at $3 in and $15 out per million: 10,000 × 3 + 2,000 × 15 = $0.06 an answer, two of them.
    const agents = today.getByRole("table", { name: "Cost per agent today" });
    // Its label carries this test process's folder when the process lookup found it within its
    // 50 ms (SPEC §9), so on a loaded machine the two answers may be two rows: they add up.
    const reviewer = agents.getByRole("row", { name: /^reviewer/ });
    await expect(reviewer.first().getByRole("cell").first()).toHaveText(/ API-equivalent$/);
    const cells = async (column: number) => reviewer.evaluateAll((rows, i) => rows.map((row) => row.querySelectorAll("td")[i]?.textContent ?? ""), column);
    const dollars = (await cells(0)).map((text) => Number(/^\$([\d.]+) API-equivalent$/.exec(text)?.[1]));
    expect(dollars.reduce((a, b) => a + b, 0)).toBeCloseTo(0.12, 6);
    const shares = (await cells(1)).map((text) => Number(/^≈ ([\d.]+) % of the 5-hour window \(anthropic\)$/.exec(text)?.[1]));
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(62, 1);
    // The seeded agent ran before this host started: its cost, and no share (it is not around now).
    await expect(agents.getByRole("row", { name: /^planner · ~\/src\/api/ }).getByRole("cell")).toHaveText(["$1.25 API-equivalent", "–"]);
    const projects = today.getByRole("table", { name: "Cost per project today" });
    await expect(projects.getByRole("row", { name: /^~\/src\/api/ }).getByRole("cell")).toHaveText(["$1.25 API-equivalent"]);
    // The proxied answers' project is this test process's folder when the lookup found it in time, else `unknown`: $0.12 either way.
    const others = await projects.locator("tbody tr").filter({ hasNotText: "~/src/api" }).locator("td").allTextContents();
    expect(others.map((text) => Number(/^\$([\d.]+) API-equivalent$/.exec(text)?.[1])).reduce((a, b) => a + b, 0)).toBeCloseTo(0.12, 6);
    // Tokens per hour: the two answers' 24,000 tokens (the seeded day has no hours).
    const bars = today.getByRole("list", { name: "Tokens per hour today" });
    await expect(bars.getByRole("listitem")).toHaveCount(1);
    await expect(bars.getByRole("listitem")).toContainText("24K");

  } finally {
    await host.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the budget meter shows today's spend, warns from 80 % and a budget pause is worded as one", async ({ page }) => {
  test.setTimeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-budget-"));
  const fake = await startFakeProvider();
  const host = await startServe({ dataDir });
  try {
    await host.client.setLimit("anthropic", 2);
    await host.client.setProvider("anthropic", { upstream: fake.url });
    const answer = { status: 200, body: { type: "message", model: "claude-sonnet-4-5", content: [{ type: "text", text: "hi" }], usage: { input_tokens: 10_000, output_tokens: 2_000 } } };
    fake.script(answer, answer);
    for (let i = 0; i < 2; i++) {
      const sent = await fetch(`${await host.proxyOrigin()}/anthropic/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "test", "x-headroom-agent": "reviewer" },
        body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(sent.status).toBe(200);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.windowUrl);
    const card = page.getByRole("region", { name: "anthropic", exact: true });
    const meter = card.getByRole("meter", { name: "Daily budget used for anthropic" });
    await expect(meter).toHaveCount(0);

    // Two answers at $0.06 (10,000 × $3 + 2,000 × $15 per million) against $0.14: 85 %, past the 80 % warning.
    await host.client.setProvider("anthropic", { dailyBudgetUsd: 0.14 });
    await expect(meter).toHaveAttribute("aria-valuetext", "$0.12 of the $0.14 daily budget spent today (85 %): nearing the budget, it pauses at 100 % until midnight");
    await expect(card.locator(".meter-row").filter({ has: page.getByRole("meter", { name: "Daily budget used for anthropic" }) })).toHaveClass(/window-warn/);

    // Below what was spent: the provider pauses until midnight, worded as a budget pause.
    await host.client.setProvider("anthropic", { dailyBudgetUsd: 0.1 });
    await expect(card.getByText(/^budget reached · /)).toBeVisible();
    await expect(card.getByText("Paused: daily budget reached")).toBeVisible();
    await expect(meter).toHaveAttribute("aria-valuetext", /^\$0\.12 of the \$0\.10 daily budget spent today \(120 %\): reached, new agents wait until midnight$/);
  } finally {
    await host.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
