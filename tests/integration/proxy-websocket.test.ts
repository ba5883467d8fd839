// SPEC §6 "WebSocket": Codex's Responses transport is gated like any generation request.
import { afterEach, expect, test } from "vitest";
import WebSocket from "ws";
import { eventually } from "../support/test-host";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await h?.close();
  h = undefined;
});

function connect(url: string, headers: Record<string, string> = {}): WebSocket {
  const client = new WebSocket(url.replace(/^http/, "ws"), { headers: { authorization: "Bearer sk-test", "openai-beta": "responses_websockets=2026-02-06", ...headers } });
  clients.push(client);
  client.on("error", () => {}); // a refused or terminated client reports it here; the tests read events instead
  return client;
}

const opened = (client: WebSocket) =>
  new Promise<void>((resolve, reject) => {
    client.once("open", () => resolve());
    client.once("error", reject);
  });
const nextMessage = (client: WebSocket) =>
  new Promise<{ data: Buffer; isBinary: boolean }>((resolve) => client.once("message", (data, isBinary) => resolve({ data: data as Buffer, isBinary })));
const closed = (client: WebSocket) => new Promise<number>((resolve) => client.once("close", (code) => resolve(code)));
const entry = async () => (await h!.client.status()).providers[0]!;

test("an upgrade on /v1/responses waits for a slot, is relayed both ways unchanged, and holds the slot until it closes", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai" });
  const held = await h.client.acquire({ providerId: h.providerId, agentId: "other" });
  const client = connect(`${h.base}/v1/responses`);
  await eventually(async () => expect((await entry()).queued).toBe(1));
  expect(h.fake.stats.openWebSockets).toBe(0);

  await h.client.release(held.leaseId, "success");
  await opened(client);
  expect(await entry()).toMatchObject({ active: 1, queued: 0 });
  expect(h.fake.stats.lastHeaders).toMatchObject({ authorization: "Bearer sk-test", "openai-beta": "responses_websockets=2026-02-06" });

  const text = JSON.stringify({ type: "conversation.note", text: "héllo" });
  client.send(text);
  const echoed = await nextMessage(client);
  expect(echoed).toEqual({ data: Buffer.from(text), isBinary: false });
  const bytes = Buffer.from([0, 1, 2, 255]);
  client.send(bytes);
  expect(await nextMessage(client)).toEqual({ data: bytes, isBinary: true });

  client.close(1000);
  await closed(client);
  await eventually(async () => expect(await entry()).toMatchObject({ active: 0 }));
  await eventually(() => expect(h!.fake.stats.openWebSockets).toBe(0));
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
});

test("an upstream refusing the upgrade with 429 is passed through and pauses the provider", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "openai" });
  h.fake.script({ status: 429, headers: { "retry-after": "3" } });
  const client = connect(`${h.base}/v1/responses`);
  const refused = await new Promise<{ status: number; retryAfter: unknown }>((resolve) =>
    client.once("unexpected-response", (_req, res) => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] })),
  );
  expect(refused).toEqual({ status: 429, retryAfter: "3" });
  await eventually(async () => expect(await entry()).toMatchObject({ paused: true, active: 0, limit: 1 }));
});

test("a server error message with status 429 pauses the provider the moment it passes; the connection's end adds no second outcome", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "openai" });
  const client = connect(`${h.base}/v1/responses`);
  await opened(client);
  client.send("error429");
  expect(JSON.parse((await nextMessage(client)).data.toString())).toMatchObject({ type: "error", status: 429 });
  // Paused and lowered while the socket is still open and holding its slot.
  await eventually(async () => expect(await entry()).toMatchObject({ paused: true, active: 1, limit: 1 }));
  client.send("still here");
  expect((await nextMessage(client)).data.toString()).toBe("still here");
  client.send("close"); // the fake closes normally
  expect(await closed(client)).toBe(1000);
  await eventually(async () => expect(await entry()).toMatchObject({ paused: true, active: 0, limit: 1 }));
  // Released as abandoned: neither a success nor another 429.
  expect((await h.client.history()).events.filter((e) => e.kind === "rate_limited")).toHaveLength(1);
  const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.host.token}` } })).text();
  expect(metrics).toMatch(/headroom_releases_total\{[^}]*outcome="abandoned"[^}]*\} 1\n/);
  expect(metrics).not.toMatch(/headroom_releases_total\{[^}]*outcome="(success|rate_limited)"/);
});

test("a connection silent both ways for the idle time is closed by the proxy and frees its slot", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai", host: { proxyWebSocketIdleMs: 300 } });
  const client = connect(`${h.base}/v1/responses`);
  await opened(client);
  expect((await entry()).active).toBe(1);
  expect(await closed(client)).toBe(1000);
  await eventually(async () => expect(await entry()).toMatchObject({ active: 0 }));
  await eventually(() => expect(h!.fake.stats.openWebSockets).toBe(0));
});

test("the upstream closing ends the client's connection and frees the slot", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai" });
  const client = connect(`${h.base}/v1/responses`);
  await opened(client);
  client.send("close");
  expect(await closed(client)).toBe(1000);
  await eventually(async () => expect(await entry()).toMatchObject({ active: 0 }));
});

test("each response on one socket is one request with its own model and usage, as Codex keeps its socket for many turns", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai" });
  const client = connect(`${h.base}/v1/responses`, { "x-headroom-agent": "codex-ws" });
  await opened(client);
  const completed = () =>
    new Promise<void>((resolve) => {
      const onMessage = (data: Buffer) => {
        if (!data.toString().includes('"response.completed"')) return;
        client.off("message", onMessage);
        resolve();
      };
      client.on("message", onMessage);
    });
  for (const model of ["gpt-a", "gpt-b"]) {
    const done = completed();
    client.send(JSON.stringify({ type: "response.create", model, input: "hi" }));
    await done;
  }
  // Counted as each response completes, while the socket is still open.
  await eventually(async () =>
    expect((await h!.client.usage({ by: "model" })).rows.map((row) => [row.model, row.requests, row.tokens])).toEqual([
      ["gpt-a", 1, { input: 10, output: 4, cacheRead: 0, cacheWrite: 0 }],
      ["gpt-b", 1, { input: 10, output: 4, cacheRead: 0, cacheWrite: 0 }],
    ]),
  );
  client.close(1000);
  await closed(client);
  await eventually(async () => expect(await entry()).toMatchObject({ active: 0 }));
  // The close adds no third request.
  expect((await h.client.usage()).rows).toEqual([{ agent: "codex-ws", requests: 2, rateLimited: 0, errors: 0, tokens: { input: 20, output: 8, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, unpriced: 2 }]);
});
