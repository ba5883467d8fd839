// SPEC §4 `upstreamFailures`: a provider whose proxied requests find no working upstream (none
// set, a port nobody listens on) says so in its status entry, over the API and /events. A loop
// is counted in proxy-paths-loops.test.ts.
import { createServer } from "node:http";
import { afterEach, expect, test } from "vitest";
import WebSocket from "ws";
import { readingClient } from "../support/event-readers";
import { eventually, rawRequest } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

async function entryOf(providerId: string) {
  const { providers } = await h!.client.status();
  return providers.find((entry) => entry.providerId === providerId)!;
}

/** A port on this machine that refuses connections: listened on, then closed. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("a provider without an upstream counts each request it refused with 502 no_upstream", async () => {
  h = await startProxyHarness();
  await h.client.setLimit("bare", 1);
  const events = readingClient(h.host.port, h.host.token);
  try {
    const before = Date.now();
    const answer = await post(`${h.proxyUrl}/bare/v1/messages`, message);
    expect(answer.status).toBe(502);
    expect(answer.headers.get("x-headroom-error")).toBe("no_upstream");

    const bare = await entryOf("bare");
    expect(bare.upstreamFailures).toEqual({ count: 1, lastError: "no upstream set", lastAt: expect.any(Number) });
    expect(bare.upstreamFailures!.lastAt).toBeGreaterThanOrEqual(before);
    // A provider whose upstream works has nothing to show.
    expect((await entryOf(h.providerId)).upstreamFailures).toBeUndefined();
    // The window learns of it from the push, without asking.
    await eventually(() => {
      const pushed = events.frames.filter((frame) => frame.event === "status").at(-1);
      const entry = pushed?.data.providers.find((one: { providerId: string }) => one.providerId === "bare");
      expect(entry?.upstreamFailures).toMatchObject({ count: 1, lastError: "no upstream set" });
    });

    // Pass-through requests count too: the agent's listing of models failed the same way.
    expect((await rawRequest(h.proxyUrl, { method: "GET", path: "/bare/v1/models" })).status).toBe(502);
    expect((await entryOf("bare")).upstreamFailures).toMatchObject({ count: 2 });
  } finally {
    events.close();
  }
});

test("an upstream on a port nobody listens on counts as connection refused; a success does not clear it, a new upstream does", async () => {
  h = await startProxyHarness({ limit: 1 });
  const port = await refusedPort();
  await h.client.setProvider(h.providerId, { upstream: `http://127.0.0.1:${port}` });

  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(502);
  expect((await rawRequest(h.proxyUrl, { method: "GET", path: `/${h.providerId}/v1/models` })).status).toBe(502);
  expect((await entryOf(h.providerId)).upstreamFailures).toMatchObject({ count: 2, lastError: `connection refused (127.0.0.1:${port})` });

  // The same upstream set again is no fix; the failures stay until they are 10 minutes old.
  await h.client.setProvider(h.providerId, { upstream: `http://127.0.0.1:${port}`, responseTimeoutMs: 60_000 });
  expect((await entryOf(h.providerId)).upstreamFailures).toMatchObject({ count: 2 });
  // `Set upstream`: what failed was the old one, so the provider starts clean.
  await h.client.setProvider(h.providerId, { upstream: h.fake.url });
  expect((await entryOf(h.providerId)).upstreamFailures).toBeUndefined();
  expect((await post(`${h.base}/v1/messages`, { ...message, model: "claude-other" })).status).toBe(200);
  expect((await entryOf(h.providerId)).upstreamFailures).toBeUndefined();
});

test("a WebSocket whose upstream refuses the connection is counted", async () => {
  h = await startProxyHarness({ providerId: "openai" });
  const port = await refusedPort();
  await h.client.setProvider(h.providerId, { upstream: `http://127.0.0.1:${port}` });
  const client = new WebSocket(`${h.base.replace(/^http/, "ws")}/v1/responses`);
  client.on("error", () => {}); // the refusal is read from the response instead
  const status = await new Promise<number>((resolve) => client.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)));
  client.terminate();
  expect(status).toBe(502);
  expect((await entryOf(h.providerId)).upstreamFailures).toMatchObject({ count: 1, lastError: `connection refused (127.0.0.1:${port})` });
});

test("a provider removed and added again starts with no failures", async () => {
  h = await startProxyHarness();
  await h.client.setLimit("bare", 1);
  await post(`${h.proxyUrl}/bare/v1/messages`, message);
  await h.client.removeProvider("bare");
  await h.client.setLimit("bare", 1);
  expect((await entryOf("bare")).upstreamFailures).toBeUndefined();
});
