import { request } from "node:http";
import { afterEach, expect, test } from "vitest";
import { eventually, rawRequest } from "../support/test-host";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 16, messages: [{ role: "user", content: "hi" }] };

test("the upstream never sees more than the limit: 8 concurrent requests through a limit of 2", async () => {
  h = await startProxyHarness({ limit: 2, fake: { events: 4, eventDelayMs: 15 } });
  const answers = await Promise.all(Array.from({ length: 8 }, () => post(`${h!.base}/v1/messages`, message)));
  expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  expect(h.fake.stats.generations).toBe(8);
  expect(h.fake.stats.maxConcurrent).toBe(2);
  const status = (await h.client.status()).providers[0]!;
  expect(status).toMatchObject({ providerId: "anthropic", active: 0, queued: 0, limit: 2 });
});

test("a client that hangs up mid-stream frees its slot and the upstream request is cut", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  const first = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  const res = await first.response;
  expect(res.statusCode).toBe(200);
  await new Promise((resolve) => res.once("data", resolve));
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 1 });

  const second = post(`${h.base}/v1/messages`, message);
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ queued: 1 }));
  h.fake.configure({ events: 2 }); // the next answer is short
  first.req.destroy();
  expect((await second).status).toBe(200);
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(0));
});

test("a client that leaves while queued leaves the queue and never reaches the upstream", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  const holder = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  await holder.response;
  const queued = openRequest(`${h.base}/v1/messages`, message);
  queued.response.catch(() => {});
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ queued: 1 }));
  queued.req.destroy();
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ queued: 0, active: 1 }));
  holder.req.destroy();
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0 }));
  expect(h.fake.stats.generations).toBe(1);
});

test("the agent header names the holder in the leases view and is not forwarded", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  const holder = openRequest(`${h.base}/v1/messages`, { ...message, stream: true }, { "x-headroom-agent": "claude-1" });
  await holder.response;
  const leases = await h.client.leases(h.providerId);
  expect(leases.held).toEqual([expect.objectContaining({ agentId: "claude-1" })]);
  expect(leases.held[0]!.expiresAt).toBeUndefined(); // the connection is the lease
  expect(h.fake.stats.lastHeaders?.["x-headroom-agent"]).toBeUndefined();
  holder.req.destroy();
});

test("non-generation paths pass straight through, ungated, with query, headers and host rewritten", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  const holder = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  await holder.response; // the only slot is taken
  const models = await fetch(`${h.base}/v1/models?limit=5`, { headers: { "x-api-key": "sk-pass" } });
  expect(models.status).toBe(200);
  expect(await models.json()).toMatchObject({ data: expect.any(Array) });
  expect(h.fake.stats.lastPath).toBe("/v1/models?limit=5");
  expect(h.fake.stats.lastHeaders).toMatchObject({ "x-api-key": "sk-pass", host: new URL(h.fake.url).host });
  // A GET on a generation path and a POST elsewhere are not gated either.
  expect((await fetch(`${h.base}/v1/messages`)).status).toBe(404);
  expect((await post(`${h.base}/v1/messages/count_tokens`, message)).status).toBe(404);
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 1, queued: 0 });
  holder.req.destroy();
});

test("dot segments cannot dodge the gate: /v1/x/../messages is gated like /v1/messages", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  const holder = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  await holder.response;
  const sneaky = rawRequest(h.proxyUrl, {
    method: "POST",
    path: "/anthropic/v1/x/%2e%2e/messages",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(message),
  });
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ queued: 1 }));
  h.fake.configure({ events: 1 });
  holder.req.destroy();
  expect((await sneaky).status).toBe(200);
  expect(h.fake.stats.lastPath).toBe("/v1/messages");
});

test("an unknown provider is 404 naming the known ones; a provider without upstream is 502", async () => {
  h = await startProxyHarness();
  const unknown = await post(`${h.proxyUrl}/nope/v1/messages`, message);
  expect(unknown.status).toBe(404);
  expect(unknown.json()).toEqual({
    type: "error",
    error: { type: "not_found_error", message: expect.stringMatching(/Headroom: unknown provider nope .*anthropic/i) },
  });
  await h.client.setLimit("bare", 1);
  const bare = await post(`${h.proxyUrl}/bare/v1/chat/completions`, message);
  expect(bare.status).toBe(502);
  expect(bare.json()).toMatchObject({ error: { code: "no_upstream", message: expect.stringContaining("upstream") } });
  const root = await rawRequest(h.proxyUrl, { path: "/" });
  expect(root.status).toBe(404);
});

test("hostInfo names the proxy, and stopping the host cuts in-flight streams and releases their slots", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 200, eventDelayMs: 50 } });
  expect(await h.client.hostInfo()).toMatchObject({ proxyUrl: h.proxyUrl });
  const holder = openRequest(`${h.base}/v1/messages`, { ...message, stream: true });
  const res = await holder.response;
  const ended = new Promise((resolve) => res.on("close", resolve));
  await h.host.stop();
  await ended;
  expect(h.host.service.status().providers[0]).toMatchObject({ active: 0 });
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(0));
});

test("a gated request's credentials reach the provider; hop-by-hop headers and those its Connection names do not", async () => {
  h = await startProxyHarness({ fake: { events: 1, eventDelayMs: 0 } });
  // node:http, not fetch: fetch refuses to send a Connection header of its own.
  const send = (headers: Record<string, string>) =>
    new Promise<{ status: number }>((resolve, reject) => {
      const all = { "content-type": "application/json", "x-api-key": "sk-pass", "x-trace": "t1", ...headers };
      const req = request(`${h!.base}/v1/messages`, { method: "POST", headers: all }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(message));
    });
  expect((await send({ connection: "keep-alive, X-Trace", "keep-alive": "timeout=5" })).status).toBe(200);
  expect(h.fake.stats.lastHeaders).toMatchObject({ "x-api-key": "sk-pass" });
  expect(h.fake.stats.lastHeaders).not.toHaveProperty("x-trace");
  expect(h.fake.stats.lastHeaders).not.toHaveProperty("keep-alive");
  // What nearly every client sends names nothing else: every end-to-end header goes on.
  expect((await send({ connection: "Keep-Alive", "keep-alive": "timeout=5" })).status).toBe(200);
  expect(h.fake.stats.lastHeaders).toMatchObject({ "x-api-key": "sk-pass", "x-trace": "t1" });
  expect(h.fake.stats.lastHeaders).not.toHaveProperty("keep-alive");
});
