// SPEC §8 through the real proxy in front of a fake upstream: plan-window readings in the
// status and /metrics, the immediate 429 while a window is used up (nothing reaches the
// provider), the probe at the reset, Codex's refusal and in-band event, and junk headers.
import { afterEach, expect, test } from "vitest";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import * as recorded from "../fixtures/plan-window-headers";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
const ok = { type: "message", content: [{ type: "text", text: "hi" }] };
const epochS = (ms: number) => String(Math.ceil(ms / 1000));

test("a drained 5-hour window: the 429 passes on, the next request is refused at once, the first after the reset probes", async () => {
  h = await startProxyHarness({ limit: 3 });
  // Off: every request is refused however near the reset (the near wait has its own test below).
  await h.client.setProvider("anthropic", { waitForResetMs: 0 });
  const resetAt = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
  h.fake.script({
    status: 429,
    headers: {
      ...recorded.anthropicFiveHourRejected,
      "anthropic-ratelimit-unified-5h-reset": epochS(resetAt),
      "anthropic-ratelimit-unified-reset": epochS(resetAt),
    },
    body: { type: "error", error: { type: "rate_limit_error", message: "5-hour limit reached" } },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({ paused: true, pausedUntil: resetAt, limit: 3, autoReduced: false });
  expect(entry.pauseReason).toMatch(/^5-hour window used up; resets \d\d:\d\d$/);
  expect(entry.windows?.find((w) => w.name === "5h")).toMatchObject({ usedPercent: 100, status: "rejected", binding: true, resetsAt: resetAt });

  const generations = h.fake.stats.generations;
  const refused = await post(`${h.base}/v1/messages`, message);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("x-headroom-error")).toBe("usage_limit_reached");
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(refused.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  // Honest (SPEC §8): refused, not held, and how a headless agent waits for the reset.
  expect((refused.json() as { error: { message: string } }).error.message).toMatch(
    /^Headroom: anthropic's 5-hour window is used up; it resets at \d\d:\d\d\. New requests are refused until then; a headless agent can wait for it with headroom run --resume\.$/,
  );
  expect(h.fake.stats.generations).toBe(generations); // nothing reached the provider

  // An API waiter keeps waiting through the pause: at the reset it is the one admission that goes first.
  const probe = await h.client.acquire({ providerId: "anthropic", timeoutMs: 30_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(resetAt);
  h.fake.script({ status: 200, body: ok, headers: recorded.anthropicAllowedOverageOff });
  const behind = post(`${h.base}/v1/messages`, message); // waits for the probe's outcome
  await h.client.release(probe.leaseId, "success");
  expect((await behind).status).toBe(200);
  const { events } = await h.client.history();
  expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(["window_exhausted", "window_reset"]));
  // Who stopped on it (SPEC §8): the agent whose requests the window refused, by its label.
  expect(events.find((e) => e.kind === "window_reset")?.message).toMatch(/^anthropic's 5-hour window reset; agents are admitted again\. Stopped on it: \S.*$/);
  expect(events.some((e) => e.kind === "reduced")).toBe(false);
});

test("rejected with overage allowed still serves: no pause", async () => {
  h = await startProxyHarness({ limit: 2 });
  h.fake.script({ status: 200, body: ok, headers: recorded.anthropicRejectedWithOverage });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false });
});

test("Codex's usage_limit_reached pauses until resets_in_seconds; the refusal speaks OpenAI's format", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "codex" });
  h.fake.script({ status: 429, headers: recorded.codexUsageLimit.headers, body: { error: { type: "usage_limit_reached", resets_in_seconds: 600 } } });
  const chat = { model: "gpt-5-codex", input: "hi" };
  expect((await post(`${h.base}/v1/responses`, chat)).status).toBe(429);
  const entry = (await h.client.status()).providers[0]!;
  expect(entry.paused).toBe(true);
  expect(entry.pausedUntil! - Date.now()).toBeGreaterThan(590_000);
  expect(entry.pauseReason).toMatch(/^15-minute window used up; resets/);
  const refused = await post(`${h.base}/v1/responses`, chat);
  expect(refused.status).toBe(429);
  expect(refused.json()).toMatchObject({ error: { type: "usage_limit_reached", code: "usage_limit_reached" } });
  expect((refused.json() as { error: { resets_in_seconds: number } }).error.resets_in_seconds).toBeGreaterThan(590);
  await h.client.resume("codex");
  expect((await h.client.status()).providers[0]!.paused).toBe(false);
});

test("a codex.rate_limits event inside the stream and x-codex headers fill the windows and /metrics", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "codex" });
  const resetS = Math.ceil(Date.now() / 1000) + 3_600;
  const event = { type: "codex.rate_limits", rate_limits: { primary: { used_percent: 31, window_minutes: 300, reset_at: resetS } } };
  h.fake.script({
    status: 200,
    headers: { "x-codex-secondary-used-percent": "40", "x-codex-secondary-window-minutes": "10080" },
    stream: [`event: codex.rate_limits\ndata: ${JSON.stringify(event)}\n\n`, 'data: {"type":"response.completed","response":{}}\n\n'],
  });
  expect((await post(`${h.base}/v1/responses`, { model: "gpt-5-codex", input: "hi", stream: true })).status).toBe(200);
  const windows = (await h.client.status()).providers[0]!.windows ?? [];
  expect(windows.map((w) => [w.name, w.usedPercent])).toEqual(expect.arrayContaining([["primary", 31], ["secondary", 40]]));
  const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.host.token}` } })).text();
  expect(metrics).toContain('headroom_window_used_ratio{provider="codex",window="primary"} 0.31');
  expect(metrics).toContain(`headroom_window_resets_at_seconds{provider="codex",window="primary"} ${resetS}`);
});

test("header values of any shape never cause a 5xx and never count", async () => {
  h = await startProxyHarness({ limit: 2 });
  h.fake.script({
    status: 200,
    body: ok,
    headers: {
      "anthropic-ratelimit-unified-status": "rejected-ish",
      "anthropic-ratelimit-unified-5h-utilization": "NaN",
      "anthropic-ratelimit-unified-5h-reset": "9".repeat(300),
      "anthropic-ratelimit-unified-representative-claim": "x".repeat(500),
      "x-codex-primary-used-percent": "-5",
      "x-codex-primary-reset-at": "soon",
    },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false });
});

test("the demo's fake plan window fills, is used up, pauses the provider until it resets, then admits again", async () => {
  h = await startProxyHarness({ limit: 2, fake: { planWindow: { fillMs: 300, resetMs: 1_200 }, events: 1, eventDelayMs: 0 } });
  await h.client.setProvider("anthropic", { waitForResetMs: 0 }); // refused at once, not waited through
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  const before = (await h.client.status()).providers[0]!;
  expect(before.windows?.[0]).toMatchObject({ name: "5h", binding: true });
  await new Promise((r) => setTimeout(r, 350));
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429); // the fake's own refusal
  const paused = (await h.client.status()).providers[0]!;
  expect(paused).toMatchObject({ paused: true, autoReduced: false });
  const generations = h.fake.stats.generations;
  expect((await post(`${h.base}/v1/messages`, message)).headers.get("x-headroom-error")).toBe("usage_limit_reached");
  expect(h.fake.stats.generations).toBe(generations);
  await new Promise((r) => setTimeout(r, paused.pausedUntil! - Date.now() + 50));
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect((await h.client.history()).events.some((e) => e.kind === "window_reset")).toBe(true);
});

test("waitForResetMs: a request that meets a used-up window whose reset is near waits for it and is answered by the provider", async () => {
  h = await startProxyHarness({ limit: 2 });
  const resetAt = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
  const resetS = String(resetAt / 1000);
  h.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "anthropic-ratelimit-unified-5h-reset": resetS, "anthropic-ratelimit-unified-reset": resetS },
    body: { type: "error", error: { type: "rate_limit_error", message: "5-hour limit reached" } },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: true, pausedUntil: resetAt, pauseKind: "window" });
  // Within the default 2 minutes: it waits in the queue and goes as the probe at the reset.
  const waited = await post(`${h.base}/v1/messages`, message);
  expect(waited.status).toBe(200);
  expect(Date.now()).toBeGreaterThanOrEqual(resetAt);
  // A reset further away than waitForResetMs is refused at once, as before.
  await h.client.setProvider("anthropic", { waitForResetMs: 1_000 });
  const farS = String(Math.ceil((Date.now() + 30_000) / 1000));
  h.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "anthropic-ratelimit-unified-5h-reset": farS, "anthropic-ratelimit-unified-reset": farS },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  const generations = h.fake.stats.generations;
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  expect(h.fake.stats.generations).toBe(generations);
}, 60_000);
