// SPEC §6 "Bounded whatever clients send": queued bodies and WebSocket relays measured as the
// resident memory of a real `serve` process, so a proxy that buffers for a client that
// floods or stops reading shows it.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { rssOf } from "../support/event-readers";
import { startServe, type ServeProcess } from "../support/serve-process";
import { eventually, removeDir, tempDir } from "../support/test-host";

const MiB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

let serve: ServeProcess | undefined;
let fake: FakeProvider | undefined;
let upstream: WebSocketServer | undefined;
const sockets: WebSocket[] = [];
const dataDir = tempDir();
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await serve?.stop();
  await fake?.close();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  serve = fake = upstream = undefined;
  removeDir(dataDir);
});

/** A serve process whose provider `p` (limit 1) has `upstreamUrl` as its upstream. */
async function serveFor(upstreamUrl: string): Promise<{ s: ServeProcess; base: string }> {
  serve = await startServe({ dataDir });
  await serve.client.setLimit("p", 1);
  await serve.client.setCooldown("p", 0);
  await serve.client.setProvider("p", { upstream: upstreamUrl });
  return { s: serve, base: `${await serve.proxyOrigin()}/p` };
}

function postBody(url: string, body: Buffer): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": String(body.length) } });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ...(res.headers["retry-after"] ? { retryAfter: String(res.headers["retry-after"]) } : {}) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Waits until `value` reaches `total` or has not changed for 2 s (a loaded machine): the flow it counts has stopped. */
async function settled(value: () => number): Promise<void> {
  let last = -1;
  let still = 0;
  while (still < 10 && last < total) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = value();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

test("bodies queued behind a held slot total at most 64 MiB; the rest are answered 503 retry-after 1", async () => {
  fake = await startFakeProvider();
  const { s, base } = await serveFor(fake.url);
  const pad = 12 * MiB;
  const body = Buffer.from(JSON.stringify({ model: "m", messages: [], pad: "x".repeat(pad) }));
  expect((await postBody(`${base}/v1/messages`, body)).status).toBe(200); // warm-up: buffers and code paths exist
  const held = await s.client.acquire({ providerId: "p", agentId: "holder" });
  const before = await rssOf(s.pid);

  const count = 16; // 192 MiB of bodies
  const answers: { status: number; retryAfter?: string }[] = [];
  const all = Array.from({ length: count }, () => postBody(`${base}/v1/messages`, body).then((answer) => void answers.push(answer)));
  await eventually(async () => {
    const { queued } = (await s.client.status()).providers.find((p) => p.providerId === "p")!;
    expect(queued + answers.length).toBe(count);
  }, 30_000);
  const queued = await rssOf(s.pid);

  await s.client.release(held.leaseId, "success");
  await Promise.all(all);
  await settled(() => answers.length);
  const after = await rssOf(s.pid);
  console.log(`${count} × ${mb(body.length)} bodies behind a held slot: RSS ${mb(before)} → ${mb(queued)} queued → ${mb(after)} after`);

  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter === "1")).toBe(true);
  expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(Math.floor((64 * MiB) / body.length));
  // 64 MiB held, plus the dropped bytes of refused bodies until the collector runs.
  expect(queued - before).toBeLessThan(128 * MiB);
  expect(after - before).toBeLessThan(128 * MiB);
}, 60_000);

test("a client that leaves while its body is queued gives its share of the 64 MiB back", async () => {
  fake = await startFakeProvider();
  const { s, base } = await serveFor(fake.url);
  const body = Buffer.from(JSON.stringify({ model: "m", messages: [], pad: "x".repeat(31 * MiB) }));
  const held = await s.client.acquire({ providerId: "p", agentId: "holder" });
  const queuedOf = async () => (await s.client.status()).providers.find((p) => p.providerId === "p")!.queued;

  // Two 31 MiB bodies fill the budget; a third is refused at once.
  const leaving = [0, 1].map(() => request(`${base}/v1/messages`, { method: "POST", headers: { "content-length": String(body.length) } }));
  for (const req of leaving) {
    req.on("error", () => {});
    req.end(body);
  }
  await eventually(async () => expect(await queuedOf()).toBe(2), 30_000);
  expect(await postBody(`${base}/v1/messages`, body)).toEqual({ status: 503, retryAfter: "1" });

  for (const req of leaving) req.destroy();
  await eventually(async () => expect(await queuedOf()).toBe(0), 30_000);
  const next = postBody(`${base}/v1/messages`, body);
  await eventually(async () => expect(await queuedOf()).toBe(1), 30_000);
  await s.client.release(held.leaseId, "success");
  expect((await next).status).toBe(200);
}, 90_000);

/** An upstream WebSocket server on /v1/responses; `onSocket` gets each connection. */
async function startUpstream(onSocket: (socket: WebSocket) => void): Promise<string> {
  upstream = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  upstream.on("connection", (socket) => {
    sockets.push(socket);
    onSocket(socket);
  });
  await new Promise((resolve) => upstream!.once("listening", resolve));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

async function connect(base: string): Promise<WebSocket> {
  const client = new WebSocket(`${base.replace(/^http/, "ws")}/v1/responses`, { perMessageDeflate: false });
  sockets.push(client);
  await new Promise((resolve, reject) => {
    client.once("open", resolve);
    client.once("error", reject);
  });
  return client;
}

const total = 64 * MiB;
const message = Buffer.alloc(MiB, "z");

/** Sends `total` bytes at the pace `socket` drains, as a real peer does; returns what went out so far. */
function sendPaced(socket: WebSocket): () => number {
  let sent = 0;
  const more = () => {
    while (sent < total && socket.bufferedAmount < 4 * MiB) {
      sent += message.length;
      socket.send(message, () => more());
    }
  };
  more();
  return () => sent;
}

test("a client writing to an upstream that does not read is paused: the host's memory stays flat", async () => {
  let upstreamSocket: WebSocket | undefined;
  let received = 0;
  const url = await startUpstream((socket) => {
    upstreamSocket = socket;
    socket.pause();
    socket.on("message", (data: Buffer) => (received += data.length));
  });
  const { s, base } = await serveFor(url);
  const client = await connect(base);
  const before = await rssOf(s.pid);
  const sent = sendPaced(client);
  await settled(sent);
  const stalled = await rssOf(s.pid);
  console.log(`client → upstream that does not read, ${mb(sent())} of ${mb(total)} sent: RSS ${mb(before)} → ${mb(stalled)}`);
  expect(stalled - before).toBeLessThan(32 * MiB);

  upstreamSocket!.resume(); // the relay picks up again: nothing was lost
  await eventually(() => expect(received).toBe(total), 30_000);
}, 60_000);

test("an upstream streaming to a client that does not read is paused: the host's memory stays flat", async () => {
  let sent = () => 0;
  const url = await startUpstream((socket) => (sent = sendPaced(socket)));
  const { s, base } = await serveFor(url);
  const before = await rssOf(s.pid);
  const client = await connect(base);
  client.pause();
  let received = 0;
  client.on("message", (data: Buffer) => (received += data.length));
  await settled(() => sent());
  const stalled = await rssOf(s.pid);
  console.log(`upstream → client that does not read, ${mb(sent())} of ${mb(total)} sent by upstream: RSS ${mb(before)} → ${mb(stalled)}`);
  expect(stalled - before).toBeLessThan(32 * MiB);

  client.resume();
  await eventually(() => expect(received).toBe(total), 30_000);
}, 60_000);
