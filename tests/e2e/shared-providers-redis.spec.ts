// SPEC §7 on a host with Redis: the switch shares and unshares, the card counts hosts and names
// the host of each lease, the CLI and the window agree, and a Redis outage shows.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { headroomCli, sharedUi, testWithRedis as test } from "./support/shared-providers";

test("the switch shares a provider by keyboard; the card and the command line agree; an outage shows", async ({ page, redis, sharingHost, openWindow }) => {
  test.setTimeout(60_000);
  await sharingHost.client.setLimit("anthropic", 2);
  await openWindow();
  await page.getByRole("button", { name: "Details for anthropic" }).click();
  const ui = sharedUi(page);
  const toggle = ui.shareSwitch("anthropic");
  await expect(ui.redisState()).toHaveText("Redis connected");
  await expect(toggle).not.toHaveAttribute("aria-disabled", "true");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  await toggle.focus();
  await page.keyboard.press("Space");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(toggle).toBeFocused();
  await expect(ui.hostsBadge("anthropic")).toHaveText("Shared · 1 host");
  expect((await sharingHost.client.provider("anthropic")).shared).toBe(true);

  const { hostName } = await sharingHost.client.hostInfo();
  await sharingHost.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
  await expect(ui.onHost("anthropic", hostName!)).toContainText("claude-1");

  expect(await headroomCli(sharingHost, ["providers", "unshare", "anthropic"])).toMatchObject({ code: 0, stdout: "anthropic is local to this host now.\n" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(ui.hostsBadge("anthropic")).toHaveCount(0);
  expect(await headroomCli(sharingHost, ["providers", "share", "anthropic"])).toMatchObject({ code: 0 });
  await expect(toggle).toHaveAttribute("aria-checked", "true");

  await redis.down();
  await expect(ui.redisState()).toHaveText(/^Redis unreachable/);
  await expect(page).toHaveTitle(/Redis unreachable/);
  // A free slot, yet the agent waits: the card says why.
  const waiting = sharingHost.client.acquire({ providerId: "anthropic", agentId: "codex", timeoutMs: 30_000 });
  await expect(ui.waitReason("anthropic")).toContainText("Redis");
  await redis.up();
  // Reconnecting takes the link's retry, longer than an expectation's usual 5 s under load.
  await expect(ui.redisState()).toHaveText("Redis connected", { timeout: 15_000 });
  // It came back empty: for 10 s new admissions wait for every host to re-register its leases, and the card says so.
  await expect(ui.waitReason("anthropic")).toContainText("Redis restarted empty");
  expect(await waiting).toMatchObject({ providerId: "anthropic" });
  await expect(ui.waitReason("anthropic")).toHaveCount(0);
  await expect(ui.onHost("anthropic", hostName!).filter({ hasText: "codex" })).toBeVisible();
});

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe finds no violations on a shared card with Redis up, then down (${colorScheme})`, async ({ page, redis, sharingHost, openWindow }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme });
    await sharingHost.client.setLimit("anthropic", 1);
    await sharingHost.client.setProvider("anthropic", { shared: true });
    await sharingHost.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
    await openWindow();
    const ui = sharedUi(page);
    await expect(ui.hostsBadge("anthropic")).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await redis.down();
    const waiting = sharingHost.client.acquire({ providerId: "anthropic", agentId: "codex", timeoutMs: 1_000 }).catch(() => undefined);
    await expect(ui.waitReason("anthropic")).toBeVisible();
    await ui.redisState().getByText("Redis unreachable").focus();
    await expect(page.getByRole("tooltip").filter({ hasText: "Shared providers admit nobody" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    // Back up, so the waiter's timeout is judged and the host can stop with its leases kept.
    await redis.up();
    await waiting;
  });
}
