import { codexLine, DEFAULT_PROXY_URL } from "../../renderer/agent-lines";
import { card, countRequests, expect, openDetails, test } from "./support/fixtures";

test("the card shows who holds and who waits, and a stuck lease can be released by hand", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 1);
  await host.client.setCooldown("anthropic", 0);
  const stuck = await host.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
  const waiting = host.client.acquire({ providerId: "anthropic", agentId: "codex-2", timeoutMs: 20_000 });
  await openWindow();
  const anthropic = card(page, "anthropic");
  const holding = anthropic.getByRole("list", { name: "Holding anthropic" });
  const queue = anthropic.getByRole("list", { name: "Waiting for anthropic" });

  // On the card the time reads to the minute (no room for seconds beside Release); "since" is read out.
  await expect(holding).toContainText(/claude-1 since \d\d:\d\d/);
  await expect(queue).toContainText(/codex-2 since \d\d:\d\d/);
  await expect(anthropic.getByText("1 / 1")).toBeVisible();

  await holding.getByRole("button", { name: "Release claude-1" }).click();
  const confirm = anthropic.getByRole("button", { name: "Yes, release claude-1" });
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Escape"); // Escape cancels: the lease stays, focus goes back
  await expect(holding.getByRole("button", { name: "Release claude-1" })).toBeFocused();
  expect((await host.client.leases("anthropic")).held).toHaveLength(1);
  await holding.getByRole("button", { name: "Release claude-1" }).click();
  await confirm.click();
  const admitted = await waiting;
  await expect(holding).toContainText("codex-2");
  await expect(holding).not.toContainText("claude-1");
  await expect(queue).toHaveCount(0);
  // The released row is gone: focus moved to the next Release button instead of the page.
  await expect(holding.getByRole("button", { name: "Release codex-2" })).toBeFocused();
  expect(await host.client.release(stuck.leaseId, "success")).toEqual({ released: false });
  await host.client.release(admitted.leaseId, "success");
  await expect(anthropic.getByRole("list", { name: "Holding anthropic" })).toHaveCount(0);
});

test("an upstream URL gives the lines an agent needs, with copy buttons", async ({ page, context, host, openWindow }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await host.client.setLimit("anthropic", 2);
  await host.client.setLimit("openrouter", 2);
  await openWindow();
  const proxyUrl = (await host.client.hostInfo()).proxyUrl ?? DEFAULT_PROXY_URL;

  const anthropic = await openDetails(page, "anthropic");
  const upstream = anthropic.getByRole("textbox", { name: "Upstream URL for anthropic" });
  await upstream.fill("https://api.anthropic.com");
  await upstream.press("Enter");
  await expect(anthropic.getByText(`ANTHROPIC_BASE_URL=${proxyUrl}/anthropic`, { exact: true })).toBeVisible();
  await expect(anthropic.getByText("npx headroom run --provider anthropic -- claude", { exact: true })).toBeVisible();
  expect((await host.client.provider("anthropic")).upstream).toBe("https://api.anthropic.com");

  await anthropic.getByRole("button", { name: "Copy base URL line for anthropic" }).click();
  await expect(anthropic.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(`ANTHROPIC_BASE_URL=${proxyUrl}/anthropic`);
  await expect(anthropic.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(0, { timeout: 4_000 }); // it clears

  // Set elsewhere (HTTP), shown here: an OpenAI-style provider gets the /v1 form.
  await host.client.setProvider("openrouter", { upstream: "https://openrouter.ai/api" });
  const openrouter = await openDetails(page, "openrouter");
  await expect(openrouter.getByText(`OPENAI_BASE_URL=${proxyUrl}/openrouter/v1`, { exact: true })).toBeVisible();
  // Codex ignores OPENAI_BASE_URL: it gets its own provider entry (SPEC §6 "Agent setup lines").
  await expect(openrouter.getByText(codexLine(`${proxyUrl}/openrouter/v1`), { exact: true })).toBeVisible();

  const bad = openrouter.getByRole("textbox", { name: "Upstream URL for openrouter" });
  const box = await openrouter.getByRole("button", { name: "Save Upstream URL for openrouter" }).boundingBox();
  await bad.fill("ftp://example.com");
  await bad.press("Enter");
  await expect(bad).toHaveAccessibleDescription("The address must start with http:// or https://.");
  // The message has its own place: the Save button did not move.
  expect(await openrouter.getByRole("button", { name: "Save Upstream URL for openrouter" }).boundingBox()).toEqual(box);
});

test("a URL is saved only on purpose: half a URL is never sent on blur, Escape reverts, unsaved is marked", async ({ page, host, openWindow }) => {
  await host.client.setLimit("gemini", 2);
  await host.client.setProvider("gemini", { upstream: "https://generativelanguage.googleapis.com" });
  await openWindow();
  const puts = countRequests(page, "PUT", "/concurrency/providers/");
  const details = await openDetails(page, "gemini");
  const upstream = details.getByRole("textbox", { name: "Upstream URL for gemini" });

  await upstream.fill("https://generativelang");
  await expect(details.getByText("Upstream URL · unsaved")).toBeVisible();
  await details.getByRole("textbox", { name: "Response timeout for gemini" }).focus(); // blur
  await expect(upstream).toHaveValue("https://generativelang");
  await upstream.press("Escape");
  await expect(upstream).toHaveValue("https://generativelanguage.googleapis.com");
  await expect(details.getByText("Upstream URL · unsaved")).toHaveCount(0);
  await expect(details).toBeVisible(); // Escape in a field reverts it; it does not close the details
  expect(puts.count).toBe(0);

  await upstream.fill("https://example.com/gemini");
  await details.getByRole("button", { name: "Save Upstream URL for gemini" }).click();
  await expect.poll(async () => (await host.client.provider("gemini")).upstream).toBe("https://example.com/gemini");
  expect(puts.count).toBe(1);
});

test("the hold is set in the details: a percent saves on Enter, an empty field turns it off, a wrong one says why", async ({ page, host, openWindow }) => {
  await host.client.setLimit("anthropic", 2);
  await openWindow();
  const details = await openDetails(page, "anthropic");
  const hold = details.getByRole("spinbutton", { name: "Hold new agents at percent for anthropic" });
  await expect(hold).toHaveValue("");

  await hold.fill("90");
  await hold.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).holdNewAtPercent).toBe(90);
  await expect(details.getByText("Hold new agents at (%) · 90 %")).toBeVisible();

  await hold.fill("150");
  await hold.press("Enter");
  await expect(hold).toHaveAccessibleDescription(/1 to 100/);
  expect((await host.client.provider("anthropic")).holdNewAtPercent).toBe(90);

  await hold.fill("");
  await hold.press("Enter");
  await expect.poll(async () => (await host.client.provider("anthropic")).holdNewAtPercent).toBeUndefined();
  await expect(details.getByText("Hold new agents at (%) · off")).toBeVisible();
});
