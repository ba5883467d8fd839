// SPEC §6 "Bounded whatever clients send", "Refusals reach the client", "Browsers cannot
// drive the proxy": slow and oversized bodies are answered so the client reads the answer,
// and a request a browser marks as cross-site never reaches the upstream.
import { request, type IncomingMessage } from "node:http";
import { afterEach, expect, test } from "vitest";
import { rawRequest } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MiB = 1024 * 1024;

interface Sent {
  status?: number;
  code?: string;
  /** The client's own failure (EPIPE, ECONNRESET) when it never got to read an answer. */
  failure?: string;
}

/** Writes `body` in 1 MiB pieces at the socket's pace, as an SDK uploading a large body does. */
function upload(url: string, body: Buffer, headers: Record<string, string>): Promise<Sent> {
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } });
    req.on("response", (res: IncomingMessage) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, code: String(res.headers["x-headroom-error"]) }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ failure: error.code ?? error.message }));
    let offset = 0;
    const more = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + MiB);
        offset += piece.length;
        if (!req.write(piece)) return void req.once("drain", more);
      }
      req.end();
    };
    more();
  });
}

test("a body over 32 MiB, gated or passed through, declared or chunked, is answered 413 and the client reads it", async () => {
  h = await startProxyHarness();
  const big = Buffer.alloc(33 * MiB, "a");
  const declared = { "content-length": String(big.length) };
  // A client that will not reuse the connection is the one a proxy is tempted to close early.
  const closing = { connection: "close" };
  for (const [path, headers] of [
    ["/v1/files", declared],
    ["/v1/files", {}],
    ["/v1/files", { ...declared, ...closing }],
    ["/v1/files", closing],
    ["/v1/messages", declared],
    ["/v1/messages", {}],
    ["/v1/messages", { ...declared, ...closing }],
    ["/v1/messages", closing],
  ] as const) {
    expect(await upload(`${h.base}${path}`, big, headers), `${path} ${JSON.stringify(headers)}`).toEqual({
      status: 413,
      code: "payload_too_large",
    });
  }
  expect(h.fake.stats.generations).toBe(0);
});

/** A request that declares `length` bytes and sends one byte every `everyMs`. */
function trickle(url: string, length: number, everyMs: number) {
  const req = request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": String(length) } });
  const timer = setInterval(() => req.write("x"), everyMs);
  req.on("error", () => {}); // the proxy closes the connection after its answer; writes after that fail
  const answered = new Promise<{ status: number; code: string; closed: Promise<void> }>((resolve) => {
    req.on("response", (res: IncomingMessage) => {
      res.resume();
      const closed = new Promise<void>((done) => req.socket!.once("close", () => done()));
      resolve({ status: res.statusCode ?? 0, code: String(res.headers["x-headroom-error"]), closed });
    });
  });
  void answered.then(({ closed }) => closed).then(() => clearInterval(timer));
  return { answered, stop: () => clearInterval(timer) };
}

test("a gated body that has not arrived within the body timeout is answered 408 and its connection closed", async () => {
  h = await startProxyHarness({ host: { proxyBodyTimeoutMs: 400 } });
  const clients = Array.from({ length: 20 }, () => trickle(`${h!.base}/v1/messages`, 10_000, 50));
  try {
    for (const { answered } of clients) {
      const answer = await answered;
      expect(answer).toMatchObject({ status: 408, code: "request_timeout" });
      await answer.closed;
    }
  } finally {
    for (const client of clients) client.stop();
  }
  expect(h.fake.stats.generations).toBe(0);
  expect((await post(`${h.base}/v1/messages`, { model: "m" })).status).toBe(200);
});

test("a request with Sec-Fetch-Site other than none is refused 403 on every path; none and Sec-Fetch-Mode alone pass", async () => {
  h = await startProxyHarness();
  for (const site of ["cross-site", "same-site", "same-origin"]) {
    const image = await rawRequest(h.proxyUrl, { path: "/anthropic/v1/models", headers: { "sec-fetch-site": site, "sec-fetch-mode": "no-cors" } });
    expect(image.status).toBe(403);
    expect(image.headers["x-headroom-error"]).toBe("forbidden_origin");
    const form = await rawRequest(h.proxyUrl, { method: "POST", path: "/anthropic/v1/messages", headers: { "sec-fetch-site": site }, body: '{"model":"m"}' });
    expect(form.status).toBe(403);
  }
  expect(h.fake.stats.requests).toBe(0);
  expect((await rawRequest(h.proxyUrl, { path: "/anthropic/v1/models", headers: { "sec-fetch-site": "none" } })).status).toBe(200);
  expect((await post(`${h.base}/v1/messages`, { model: "m" }, { "sec-fetch-mode": "cors" })).status).toBe(200);
});
