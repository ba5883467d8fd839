// Pictures of the window in both themes, in the state a user most needs to read at a glance:
// eight providers, one just pushed back (banner, pause), agents holding and waiting, an open
// route, and what needs the user listed beside the cards; then one card's details.
import { card, expect, test } from "./support/fixtures";
import { rateLimit } from "./support/rate-limit";

const OUT = "test-results/screenshots";

test("light and dark screenshots of the control panel at 1280 and 900 px, and a card's details", async ({ page, host, openWindow }) => {
  test.setTimeout(60_000);
  const { client } = host;
  await client.setLimit("anthropic", 4);
  await client.setProvider("anthropic", { upstream: "https://api.anthropic.com" });
  await client.setLimit("openai", 2);
  await client.setCooldown("openai", 1_200);
  await client.setProvider("openai", { upstream: "https://api.openai.com" });
  for (const [id, limit] of [["gemini", 2], ["groq", 4], ["mistral", 2], ["ollama", 1], ["openrouter", 6], ["together", 3]] as const) {
    await client.setLimit(id, limit);
  }
  await openWindow();

  await rateLimit(client, "anthropic", 45_000);
  const held = await client.acquire({ providerId: "openai", agentId: "codex-1" });
  await client.acquire({ providerId: "openai", agentId: "aider-2" });
  const queued = client.acquire({ providerId: "openai", agentId: "claude-4", timeoutMs: 25_000 }).catch(() => undefined);
  await client.acquire({ providerId: "openrouter", agentId: "opencode-1" });
  await client.acquire({ providerId: "ollama", agentId: "aider-local" });
  await client.routeOutcome({ targetId: "openai", runtimeId: "http", modelId: "gpt-5" }, "run-1", "failure", "HTTP 529 overloaded");
  await client.routeOutcome({ targetId: "anthropic", runtimeId: "http", modelId: "claude-sonnet" }, "run-2", "success");

  await expect(card(page, "anthropic").getByRole("alert")).toBeVisible();
  await expect(card(page, "openai").getByRole("list", { name: "Waiting for openai" })).toContainText("claude-4");
  await expect(page.getByRole("table", { name: "Routes" }).getByRole("row").filter({ hasText: "gpt-5" })).toContainText("open");

  // The README's pictures: light and dark, at a laptop's 1280 × 800 and a half-screen 900 px.
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 800 });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator("body")).toHaveCSS("background-color", colorScheme === "dark" ? "rgb(20, 22, 26)" : "rgb(244, 245, 247)");
      await page.screenshot({ path: `${OUT}/window-${colorScheme}-${width}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  await card(page, "openai").getByRole("button", { name: "Details for openai" }).click();
  await expect(page.getByRole("region", { name: "openai details" })).toBeVisible();
  await page.screenshot({ path: `${OUT}/window-details-light-1280.png` });

  await client.release(held.leaseId, "success");
  await queued;
});
