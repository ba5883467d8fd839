// The usage gate of a shared provider, end to end on a real host (HTTP API, settings on disk)
// and a real redis-server: a queued waiter waits while the gate's endpoint counts the limit's
// worth of sessions, goes once it drops, the reading is in the status on the host's clock, and
// a host restarted with the gate in its settings gates again from the start.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import { freshPrefix } from "../support/shared-pool-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let redis: RedisServer;
let gate: Server;
let gateUrl: string;
let sessions = 0;
let polls = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  gate = createServer((_req, res) => {
    polls++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ concurrent_sessions: sessions }));
  });
  await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
  gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/usage`;
});

afterAll(async () => {
  await new Promise((resolve) => gate?.close(resolve));
  await redis?.stop();
});

const entry = async (h: TestHost) => (await h.client.status()).providers.find((p) => p.providerId === "anthropic");

/** One lease held at limit 1, a waiter queued behind it, the gate counting 1 session: the slot comes free and stays unused. */
async function heldBackByTheGate(h: TestHost) {
  const first = await h.client.acquire({ providerId: "anthropic" });
  let admitted = false;
  const waiting = h.client.acquire({ providerId: "anthropic", timeoutMs: 30_000 }).then((lease) => {
    admitted = true;
    return lease;
  });
  await eventually(async () => expect(await entry(h)).toMatchObject({ queued: 1 }));
  sessions = 1;
  const before = polls;
  await h.client.release(first.leaseId, "success");
  await eventually(() => expect(polls).toBeGreaterThanOrEqual(before + 2)); // polled again after the interval
  expect(await entry(h)).toMatchObject({ active: 0, queued: 1, usageGate: { ok: true, concurrentSessions: 1 } });
  expect(admitted).toBe(false);
  sessions = 0;
  const lease = await waiting;
  // The status shows the reading that let it go; on a loaded machine the status read can come
  // before the poll's reading reaches it, so it is awaited rather than read once.
  await eventually(async () => {
    const status = await entry(h);
    expect(status?.usageGate).toMatchObject({ ok: true, concurrentSessions: 0 });
    expect(Math.abs((status?.usageGate?.checkedAt ?? 0) - Date.now())).toBeLessThan(5_000);
  });
  await h.client.release(lease.leaseId, "success");
}

test("a shared provider's queued waiter waits on the host's usage gate, before and after a restart", async () => {
  const prefix = freshPrefix();
  const dataDir = tempDir();
  const options = { dataDir, redis: { url: redis.url, prefix, hostName: "laptop" } };
  let h = await startTestHost(options);
  try {
    await h.client.setLimit("anthropic", 1);
    await h.client.setProvider("anthropic", { shared: true });
    await eventually(async () => expect(await entry(h)).toMatchObject({ shared: true, hosts: 1 }));
    await h.client.setProvider("anthropic", { usageGate: { url: gateUrl, pollMs: 250 } }); // given to the joined pool
    await heldBackByTheGate(h);
    await h.stop();
    h = await startTestHost(options); // the gate comes from settings.json with the shared provider
    await eventually(async () => expect(await entry(h)).toMatchObject({ shared: true, hosts: 1 }));
    await heldBackByTheGate(h);
  } finally {
    await h.stop();
    removeDir(dataDir);
  }
});
