// SPEC §6 "Upstream rate-limit headers" through the real proxy.
import { afterEach, expect, test } from "vitest";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
const ok = { type: "message", content: [{ type: "text", text: "hi" }] };

test("the provider's rate-limit headers show in the status; 0 requests left pauses until the reset, before any 429", async () => {
  h = await startProxyHarness({ limit: 3 });
  const resetAt = new Date(Date.now() + 2_000);
  resetAt.setUTCMilliseconds(0);
  h.fake.script({
    status: 200,
    body: ok,
    headers: {
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": resetAt.toISOString().replace(".000Z", "Z"),
      "anthropic-ratelimit-tokens-remaining": "12345",
    },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({
    paused: true,
    pausedUntil: resetAt.getTime(),
    pauseReason: "upstream says 0 requests left",
    limit: 3,
    autoReduced: false,
    upstreamLimits: { requests: { limit: 50, remaining: 0, resetAt: resetAt.getTime() }, tokens: { remaining: 12345 } },
  });
  // Held back until the reset, then admitted.
  const answer = await post(`${h.base}/v1/messages`, message);
  expect(answer.status).toBe(200);
  expect(Date.now()).toBeGreaterThanOrEqual(resetAt.getTime());
});

test("the same reading on a 429 does not pause early: the 429's own rules decide", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "openai" });
  h.fake.script({
    status: 429,
    headers: { "retry-after": "1", "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s" },
  });
  const sentAt = Date.now();
  expect((await post(`${h.base}/v1/chat/completions`, { ...message, model: "gpt" })).status).toBe(429);
  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({ paused: true, pauseReason: "rate limited (429)", upstreamLimits: { requests: { remaining: 0 } } });
  expect(entry.pausedUntil! - sentAt).toBeLessThan(5_000);
});

test("the fake provider's own per-minute budget shows in the status, and its last request pauses the provider until the minute ends", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "openai", fake: { requestsPerMinute: 2, events: 1, eventDelayMs: 0 } });
  const chat = { ...message, model: "gpt-test" };
  expect((await post(`${h.base}/v1/chat/completions`, chat)).status).toBe(200);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false, upstreamLimits: { requests: { limit: 2, remaining: 1 } } });
  expect((await post(`${h.base}/v1/chat/completions`, chat)).status).toBe(200);
  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({ paused: true, pauseReason: "upstream says 0 requests left", limit: 3, upstreamLimits: { requests: { remaining: 0 } } });
  expect(entry.pausedUntil! - Date.now()).toBeGreaterThan(50_000);
  expect(h.fake.stats.rateLimited).toBe(0); // paused before the 429, not after it
});
