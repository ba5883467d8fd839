// SPEC §6 "Paths", "Loops" and the 32 MiB cap on pass-through bodies.
import { createServer as createTcpServer, connect, type Server as TcpServer } from "node:net";
import { request } from "node:http";
import { afterEach, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { eventually, rawRequest } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
let relay: TcpServer | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  relay?.close();
  relay = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

/** A POST whose path goes on the wire exactly as written: URL parsers would resolve its dots first. */
function postVerbatim(proxyUrl: string, path: string): Promise<number> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(JSON.stringify(message));
  });
}

test("no spelling of a generation endpoint reaches the upstream ungated while the only slot is held", async () => {
  h = await startProxyHarness({ limit: 1 });
  const held = await h.client.acquire({ providerId: h.providerId, agentId: "holder" });
  const spellings = ["/v1//messages", "//v1/messages", "/v1/%6Dessages", "/V1/messages", "/v1/messages/", "/v1/x/../messages"];
  const answers = spellings.map((path) => postVerbatim(h!.proxyUrl, `/${h!.providerId}${path}`));
  await eventually(async () => expect((await h!.client.status()).providers[0]!.queued).toBe(spellings.length));
  expect(h.fake.stats.requests).toBe(0);

  const escapedSlash = await post(`${h.base}/v1/messages%2F`, message);
  expect(escapedSlash.status).toBe(400);
  expect(escapedSlash.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  for (const path of ["/v1%2Fmessages", "/v1%5Cmessages", "/v1/messages%00", "/../openai/v1/messages", "/v1/../../x"]) {
    expect(await postVerbatim(h.proxyUrl, `/${h.providerId}${path}`), path).toBe(400);
  }
  expect(h.fake.stats.requests).toBe(0);

  await h.client.release(held.leaseId, "success");
  await Promise.all(answers);
  // Repeated slashes collapsed and dot segments resolved; case and other escapes as sent.
  expect(h.fake.stats.paths.sort()).toEqual(
    ["/V1/messages", "/v1/%6Dessages", "/v1/messages", "/v1/messages", "/v1/messages", "/v1/messages/"].sort(),
  );
  expect(h.fake.stats.maxConcurrent).toBe(1);
});

test("an upstream pointing at this host's own proxy or API port is refused with 400", async () => {
  h = await startProxyHarness();
  const proxyPort = new URL(h.proxyUrl).port;
  const apiPort = new URL(h.url).port;
  for (const upstream of [`http://127.0.0.1:${proxyPort}/anthropic`, `http://localhost:${proxyPort}`, `http://[::1]:${apiPort}/x`, `http://0.0.0.0:${proxyPort}`]) {
    const error = await h.client.setProvider(h.providerId, { upstream }).catch((e: unknown) => e);
    expect(error, upstream).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "invalid_input" });
  }
  expect((await h.client.provider(h.providerId)).upstream).toBe(h.fake.url);
});

test("a request that loops back into the proxy is answered 508 loop_detected, naming the provider", async () => {
  h = await startProxyHarness({ limit: 2 });
  await post(`${h.base}/v1/messages`, message);
  expect(h.fake.stats.lastHeaders?.["x-headroom-hop"]).toMatch(/^[0-9a-f-]{36}$/);

  // A plain TCP relay hides the loop from the upstream check, as a second name for this machine would.
  const proxyPort = Number(new URL(h.proxyUrl).port);
  relay = createTcpServer((socket) => socket.pipe(connect(proxyPort, "127.0.0.1")).pipe(socket));
  await new Promise<void>((resolve) => relay!.listen(0, "127.0.0.1", resolve));
  const relayPort = (relay.address() as { port: number }).port;
  await h.client.setProvider(h.providerId, { upstream: `http://127.0.0.1:${relayPort}/${h.providerId}` });

  const answer = await rawRequest(h.proxyUrl, { method: "GET", path: `/${h.providerId}/v1/models` });
  expect(answer.status).toBe(508);
  expect(answer.headers["x-headroom-error"]).toBe("loop_detected");
  expect(answer.json().error.message).toContain(`upstream of provider ${h.providerId}`);
  const gated = await post(`${h.base}/v1/messages`, message);
  expect(gated.status).toBe(508);
  expect(gated.json()).toMatchObject({ type: "error", error: { message: expect.stringContaining(h.providerId) } });
  // Each agent request counts once (SPEC §4 `upstreamFailures`); the one that came round is Headroom's own.
  expect((await h.client.status()).providers[0]!.upstreamFailures).toMatchObject({ count: 2, lastError: "loop: the upstream leads back to a Headroom proxy" });
  await eventually(async () => expect((await h!.client.status()).providers[0]!.active).toBe(0));
});

test("a pass-through body over 32 MiB gets 413: a declared length at once, a chunked one as it passes", async () => {
  h = await startProxyHarness();
  // Declared: answered before a byte of the body is sent.
  const declared = await new Promise<number>((resolve, reject) => {
    const req = request(`${h!.base}/v1/files`, { method: "POST", headers: { "content-length": String(40 * 1024 * 1024) } });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.flushHeaders();
  });
  expect(declared).toBe(413);

  // Chunked: counted while it streams; the proxy never holds it.
  const streamed = await new Promise<{ status: number; code: unknown }>((resolve, reject) => {
    const req = request(`${h!.base}/v1/files`, { method: "POST", headers: { "transfer-encoding": "chunked" } });
    req.on("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, code: res.headers["x-headroom-error"] });
      req.destroy();
    });
    req.on("error", reject);
    const chunk = Buffer.alloc(1024 * 1024, 97);
    let sent = 0;
    const pump = () => {
      while (sent < 40 && !req.destroyed) {
        sent++;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
  expect(streamed).toEqual({ status: 413, code: "payload_too_large" });
  expect((await post(`${h.base}/v1/files`, { small: true })).status).toBe(404); // the fake has no /v1/files: it passed through
});
