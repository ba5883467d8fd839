import { afterEach, expect, test } from "vitest";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", messages: [{ role: "user", content: "hi" }] };

async function rateLimitedWith(headers: Record<string, string>) {
  h = await startProxyHarness({ limit: 3 });
  h.fake.script({ status: 429, headers });
  const sentAt = Date.now();
  const answer = await post(`${h.base}/v1/messages`, message);
  const status = (await h.client.status()).providers[0]!;
  return { answer, status, sentAt };
}

test("429 with retry-after in seconds pauses the provider for that long and is passed on unchanged", async () => {
  const { answer, status, sentAt } = await rateLimitedWith({ "retry-after": "3" });
  expect(answer.status).toBe(429);
  expect(answer.headers.get("retry-after")).toBe("3");
  expect(answer.headers.get("x-headroom-error")).toBeNull();
  expect(answer.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  expect(status.paused).toBe(true);
  expect(status.pausedUntil! - sentAt).toBeGreaterThan(2_900);
  expect(status.pausedUntil! - sentAt).toBeLessThan(3_500);
  // The first 429 also lowers the limit by one (adaptive headroom); the route is untouched.
  expect(status).toMatchObject({ limit: 2, autoReduced: true, autoReducedFrom: 3 });
  const route = (await h!.client.routes()).routes[0]!;
  expect(route).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  const kinds = (await h!.client.history()).events.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["rate_limited", "reduced"]));
});

test("429 with an HTTP-date retry-after pauses until that date", async () => {
  const until = Math.ceil((Date.now() + 5_000) / 1000) * 1000; // HTTP dates have whole seconds
  const { answer, status } = await rateLimitedWith({ "retry-after": new Date(until).toUTCString() });
  expect(answer.status).toBe(429);
  expect(Math.abs(status.pausedUntil! - until)).toBeLessThan(500);
});

test("429 with Anthropic's reset headers pauses until the exhausted bucket resets", async () => {
  const now = Date.now();
  const { status } = await rateLimitedWith({
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": new Date(now + 4_000).toISOString(),
    "anthropic-ratelimit-tokens-remaining": "5000",
    "anthropic-ratelimit-tokens-reset": new Date(now + 40_000).toISOString(),
  });
  expect(Math.abs(status.pausedUntil! - (now + 4_000))).toBeLessThan(500);
});

test("429 with OpenAI's x-ratelimit-reset-requests duration pauses for it", async () => {
  const { status, sentAt } = await rateLimitedWith({ "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "2s" });
  expect(Math.abs(status.pausedUntil! - (sentAt + 2_000))).toBeLessThan(500);
});

test("a paused provider holds the next request in the queue until the pause ends", async () => {
  const { sentAt } = await rateLimitedWith({ "retry-after": "1" });
  const answer = await post(`${h!.base}/v1/messages`, message);
  expect(answer.status).toBe(200);
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual(950);
});

test("the fake provider's own cap answers 429 and the proxy learns from it", async () => {
  h = await startProxyHarness({ limit: 3, fake: { cap: 2, retryAfterSeconds: 1, events: 5, eventDelayMs: 40 } });
  const answers = await Promise.all(Array.from({ length: 3 }, () => post(`${h!.base}/v1/messages`, message)));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
  expect((await h.client.status()).providers[0]).toMatchObject({ limit: 2, autoReduced: true });
  expect((await h.client.status()).providers[0]!.notice).toMatch(/lowered from 3 to 2/);
});
