// SPEC §6 "Timeouts and abandonment": a hung upstream is a route failure with reason timeout;
// a client that leaves first makes the exchange abandoned (no success credited).
import { afterEach, expect, test } from "vitest";
import { eventually } from "../support/test-host";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

test("a hung upstream answers 504 after the response timeout, opens the route with reason timeout and frees the slot", async () => {
  h = await startProxyHarness({ limit: 1, host: { proxyUpstreamIdleMs: 1_000 } });
  h.fake.script({ status: 200, hang: true });
  const answer = await post(`${h.base}/v1/messages`, message);
  expect(answer.status).toBe(504);
  expect(answer.headers.get("x-headroom-error")).toBe("upstream_timeout");
  expect(answer.json()).toMatchObject({ type: "error", error: { type: "timeout_error" } });
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "open", reason: "timeout" });
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0 }));
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(0)); // the upstream connection was closed
});

test("a stream that goes silent past the response timeout is ended and counts a timeout", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 0 }, host: { proxyUpstreamIdleMs: 1_000 } });
  h.fake.script({ status: 200, stream: ["event: message_start\ndata: {}\n\n"], stallAfterStream: true });
  const opened = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  const res = await opened.response;
  expect(res.statusCode).toBe(200);
  res.resume();
  await new Promise((resolve) => res.on("close", resolve));
  await eventually(async () => expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "open", reason: "timeout" }));
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0 });
});

test("a client that gives up on a hung upstream is abandoned: slot back at once, upstream closed, no success credited", async () => {
  h = await startProxyHarness({ limit: 1 });
  // A first 429 without Retry-After pauses 1 s; the next one without a success between pauses 2 s.
  h.fake.script(429);
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  await h.client.resume(h.providerId);

  h.fake.script({ status: 200, hang: true });
  const opened = openRequest(`${h.base}/v1/messages`, message);
  opened.response.catch(() => {});
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(1));
  opened.req.destroy();
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0 }));
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(0));
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });

  h.fake.script(429);
  const sentAt = Date.now();
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  const status = (await h.client.status()).providers[0]!;
  // Had the abandoned exchange counted as a success, the backoff would have started over at 1 s.
  expect(status.pausedUntil! - sentAt).toBeGreaterThan(1_800);
});

test("an abandoned probe hands its claim back, so the next request may probe at once", async () => {
  h = await startProxyHarness({ limit: 2 });
  await h.client.setRouteSettings({ cooldownMs: 200 });
  h.fake.script(500);
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(500);
  await eventually(async () => expect((await h!.client.routes()).routes[0]!.state).toBe("half-open"));
  h.fake.script({ status: 200, hang: true });
  const probe = openRequest(`${h.base}/v1/messages`, message);
  probe.response.catch(() => {});
  await eventually(async () => expect((await h!.client.routes()).routes[0]!.probeOwner).toBeDefined());
  probe.req.destroy();
  await eventually(async () => expect((await h!.client.routes()).routes[0]!.probeOwner).toBeUndefined());
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed" });
});
