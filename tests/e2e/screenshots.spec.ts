// Pictures of the window in both themes, in the state a user most needs to read at a glance:
// a provider just pushed back (banner, pause), agents holding and waiting, an open route.
import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

const OUT = "test-results/screenshots";

test("light and dark screenshots with a banner and an open route", async ({ page, host, openWindow }) => {
  const { client } = host;
  await client.setLimit("anthropic", 4);
  await client.setProvider("anthropic", { upstream: "https://api.anthropic.com" });
  await client.setLimit("openai", 3);
  await client.setCooldown("openai", 1_200);
  await openWindow();

  await rateLimit(client, "anthropic", 45_000);
  const held = await client.acquire({ providerId: "openai", agentId: "codex-1" });
  await client.acquire({ providerId: "openai", agentId: "aider-2" });
  await client.acquire({ providerId: "openai", agentId: "codex-3" });
  const queued = client.acquire({ providerId: "openai", agentId: "claude-4", timeoutMs: 20_000 }).catch(() => undefined);
  await client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "HTTP 529 overloaded");
  await client.routeOutcome({ targetId: "anthropic", runtimeId: "http", modelId: "claude-sonnet" }, "run-2", "success");

  await expect(card(page, "anthropic").getByRole("alert")).toBeVisible();
  await expect(card(page, "openai").getByRole("list", { name: "Waiting for openai" })).toContainText("claude-4");
  await expect(page.getByRole("table", { name: "Routes" }).getByRole("row").filter({ hasText: "gpt-5" })).toContainText("open");

  // The README's pictures: light and dark, at a laptop's 1280 px and a half-screen 900 px.
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 1000 });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator("body")).toHaveCSS("background-color", colorScheme === "dark" ? "rgb(20, 22, 26)" : "rgb(244, 245, 247)");
      await page.screenshot({ path: `${OUT}/window-${colorScheme}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${OUT}/window-light-1920.png` });

  await client.release(held.leaseId, "success");
  await queued;
});
