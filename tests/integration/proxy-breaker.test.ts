import { createServer } from "node:net";
import { afterEach, expect, test } from "vitest";
import { eventually } from "../support/test-host";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", messages: [{ role: "user", content: "hi" }] };

test("a 529 opens the route; the next request gets 503 in Anthropic's format without reaching upstream", async () => {
  h = await startProxyHarness({ limit: 2 });
  h.fake.script(529);
  const overloaded = await post(`${h.base}/v1/messages`, message);
  expect(overloaded.status).toBe(529); // passed on unchanged
  expect(overloaded.json()).toMatchObject({ error: { type: "overloaded_error" } });
  const route = (await h.client.routes()).routes[0]!;
  expect(route).toMatchObject({ modelId: "claude-test", state: "open", reason: "upstream answered 529 (overloaded)" });
  // A failure is not a rate limit: no pause, no reduction.
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false, limit: 2, autoReduced: false });

  const seen = h.fake.stats.requests;
  const refused = await post(`${h.base}/v1/messages`, message);
  expect(refused.status).toBe(503);
  expect(Number(refused.headers.get("retry-after"))).toBe(15); // the default 15 s breaker cooldown, rounded up
  expect(refused.headers.get("x-headroom-error")).toBe("route_open");
  expect(refused.json()).toEqual({
    type: "error",
    error: { type: "overloaded_error", message: expect.stringMatching(/^Headroom: route anthropic \/ http \/ claude-test .*529/) },
  });
  expect(h.fake.stats.requests).toBe(seen);
  // Another model on the same provider is another route, still open for business.
  expect((await post(`${h.base}/v1/messages`, { ...message, model: "claude-other" })).status).toBe(200);
});

test("a 500 on an OpenAI path opens the route and refusals come in OpenAI's format", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "openai" });
  h.fake.script(500);
  expect((await post(`${h.base}/v1/chat/completions`, { model: "gpt-test", messages: [] })).status).toBe(500);
  const refused = await post(`${h.base}/v1/chat/completions`, { model: "gpt-test", messages: [] });
  expect(refused.status).toBe(503);
  expect(refused.json()).toEqual({
    error: { message: expect.stringContaining("Headroom"), type: "server_error", param: null, code: "route_open" },
  });
});

test("after the cooldown one request probes; others get 503 retry-after 1 until it succeeds and closes the route", async () => {
  h = await startProxyHarness({ limit: 3, fake: { events: 2, eventDelayMs: 10 } });
  await h.client.setRouteSettings({ cooldownMs: 300 });
  h.fake.script(529);
  await post(`${h.base}/v1/messages`, message);
  await eventually(async () => expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "half-open" }));

  h.fake.configure({ firstByteDelayMs: 400 });
  const probe = post(`${h.base}/v1/messages`, message);
  await eventually(async () => expect((await h!.client.routes()).routes[0]!.probeOwner).toBeDefined());
  const refused = await post(`${h.base}/v1/messages`, message);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(refused.headers.get("x-headroom-error")).toBe("route_probing");
  expect((await probe).status).toBe(200);
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  const kinds = (await h.client.history()).events.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["route_opened", "route_half_open", "route_closed"]));
});

test("a probe whose client hangs up hands the probe back instead of wedging the route", async () => {
  h = await startProxyHarness({ limit: 3, fake: { events: 100, eventDelayMs: 50 } });
  await h.client.setRouteSettings({ cooldownMs: 200 });
  h.fake.script(529);
  await post(`${h.base}/v1/messages`, message);
  await eventually(async () => expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "half-open" }));
  const probe = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  await probe.response;
  expect((await h.client.routes()).routes[0]!.probeOwner).toBeDefined();
  probe.req.destroy();
  await eventually(async () => expect((await h!.client.routes()).routes[0]!.probeOwner).toBeUndefined());
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "half-open" });
});

test("an unreachable upstream answers 502, counts a route failure, and frees the slot", async () => {
  h = await startProxyHarness({ limit: 1 });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  await h.client.setProvider(h.providerId, { upstream: `http://127.0.0.1:${port}` });

  const answer = await post(`${h.base}/v1/messages`, message);
  expect(answer.status).toBe(502);
  expect(answer.json()).toMatchObject({ type: "error", error: { type: "api_error", message: expect.stringContaining("ECONNREFUSED") } });
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "open", reason: expect.stringContaining("ECONNREFUSED") });
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0, paused: false });
});

test("an upstream silent past its response timeout answers 504 and counts a route failure with reason timeout", async () => {
  h = await startProxyHarness({ limit: 1, fake: { firstByteDelayMs: 1_000 }, host: { proxyUpstreamIdleMs: 200 } });
  const answer = await post(`${h.base}/v1/messages`, message);
  // Cut by the idle timeout, not answered late: the fake's first byte would have been a 200.
  expect(answer.status).toBe(504);
  expect(answer.headers.get("x-headroom-error")).toBe("upstream_timeout");
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "open", reason: "timeout" });
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0 }));
});

test("an upstream that stalls mid-stream past its response timeout is cut and counts a route failure with reason timeout", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 2_000 }, host: { proxyUpstreamIdleMs: 300 } });
  const opened = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  const res = await opened.response;
  expect(res.statusCode).toBe(200);
  res.resume();
  await new Promise((resolve) => res.on("close", resolve));
  expect(res.complete).toBe(false);
  await eventually(async () =>
    expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "open", reason: "timeout" }),
  );
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0 });
});

test("an upstream that drops the connection mid-stream cuts the client and counts a route failure", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 50 } });
  h.fake.script({ status: 200, cutMidStream: true });
  const opened = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  const res = await opened.response;
  expect(res.statusCode).toBe(200);
  const outcome = await new Promise<string>((resolve) => {
    res.on("end", () => resolve("end"));
    res.on("error", () => resolve("error"));
    res.on("close", () => resolve(res.complete ? "end" : "cut"));
    res.resume();
  });
  expect(outcome).not.toBe("end"); // the client must not take a truncated answer as complete
  await eventually(async () =>
    expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "open", reason: expect.stringContaining("upstream") }),
  );
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0 });
});

test("other 4xx answers are neutral: the route stays closed and nothing pauses", async () => {
  h = await startProxyHarness({ limit: 1 });
  h.fake.script(400, 401, 404);
  for (const status of [400, 401, 404]) expect((await post(`${h.base}/v1/messages`, message)).status).toBe(status);
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false, limit: 1, active: 0 });
});
