// SPEC §7 wired end to end: two real hosts (HTTP API, settings on disk) on one real
// redis-server share a provider. What a user sees: one limit across both, Redis's settings
// winning over a joining host's, each lease naming its host, Redis's state in /health,
// /metrics and the status, and a provider that becomes local again keeping the settings.
import { afterEach, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import type { HostOptions } from "../../electron/host/start-host";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import { freshPrefix } from "../support/shared-pool-harness";
import { until } from "../support/shared-serve-hosts";
import { removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";
import { useRedisServer } from "../support/use-redis";

const redis = useRedisServer();
const started: TestHost[] = [];


afterEach(async () => {
  for (const host of started.splice(0)) {
    await host.stop();
    removeDir(host.dataDir);
  }
});


async function host(name: string, prefix: string, dataDir = tempDir()): Promise<TestHost> {
  const running = await startTestHost({ dataDir, redis: { url: redis.server.url, prefix, hostName: name } });
  started.push(running);
  return running;
}

const entry = async (h: TestHost, providerId: string) => (await h.client.status()).providers.find((p) => p.providerId === providerId);

/** A test with a redis-server of its own, which it may stop and start; `options` start a host named laptop on it. */
async function onOwnRedis(run: (own: RedisServer, options: Partial<HostOptions>) => Promise<void>): Promise<void> {
  const own = await startRedisServer();
  try {
    await run(own, { dataDir: tempDir(), redis: { url: own.url, prefix: freshPrefix(), hostName: "laptop" } });
  } finally {
    await own.stop();
  }
}

/** A first run of the host that shares anthropic at `limit`, does `meanwhile`, and stops. */
async function shareThenStop<T>(options: Partial<HostOptions>, limit: number, meanwhile?: (h: TestHost) => Promise<T>): Promise<T | undefined> {
  const first = await startTestHost(options);
  await first.client.setLimit("anthropic", limit);
  await first.client.setProvider("anthropic", { shared: true });
  const result = await meanwhile?.(first);
  await first.stop();
  return result;
}

test("two hosts sharing a provider admit no more than its one limit, and a release on one admits the waiter on the other", async () => {
  const prefix = freshPrefix();
  const [a, b] = [await host("laptop", prefix), await host("devbox", prefix)];
  await a.client.setLimit("anthropic", 2);
  await a.client.setProvider("anthropic", { shared: true });
  // The joining host's own limit loses to the one Redis holds.
  await b.client.setLimit("anthropic", 5);
  await b.client.setProvider("anthropic", { shared: true });
  expect((await b.client.provider("anthropic")).shared).toBe(true);
  await until(() => entry(b, "anthropic"), (e) => e?.limit === 2 && e.hosts === 2, "devbox to see Redis's limit and both hosts");

  const first = await a.client.acquire({ providerId: "anthropic", agentId: "a1" });
  const second = await b.client.acquire({ providerId: "anthropic", agentId: "b1" });
  await expect(b.client.acquire({ providerId: "anthropic", timeoutMs: 0 })).rejects.toMatchObject({ status: 408 });

  const waiting = a.client.acquire({ providerId: "anthropic", agentId: "a2", timeoutMs: 20_000 });
  const seen = await until(() => a.client.leases("anthropic"), (l) => l.waiting.length === 1 && l.held.length === 2, "the waiter");
  expect(seen.held.map((lease) => lease.host).sort()).toEqual(["devbox", "laptop"]);
  expect(seen.waiting[0]?.host).toBe("laptop");

  expect(await b.client.release(second.leaseId, "success")).toEqual({ released: true });
  const third = await waiting;
  expect(third.providerId).toBe("anthropic");
  const status = await until(() => entry(a, "anthropic"), (e) => e?.active === 2, "two held");
  expect(status).toMatchObject({ shared: true, hosts: 2, limit: 2 });
  await a.client.release(first.leaseId, "success");
  await a.client.release(third.leaseId, "success");
});

test("Redis's state is in /health, the status and /metrics, never its URL", async () => {
  const prefix = freshPrefix();
  const a = await host("laptop", prefix);
  await a.client.setLimit("openai", 3);
  await a.client.setProvider("openai", { shared: true });
  await a.client.setLimit("local-only", 1);
  const health = await until(() => a.client.health(), (h) => h.redis?.connected === true, "Redis connected");
  expect(JSON.stringify(health)).not.toContain(String(redis.server.port));
  expect((await a.client.status()).redis).toEqual({ connected: true });
  expect((await a.client.hostInfo()).hostName).toBe("laptop");

  const res = await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${a.host.token}` } });
  const text = await res.text();
  expect(text).toMatch(/^headroom_redis_connected 1$/m);
  expect(text).toMatch(/^headroom_limit\{provider="openai",shared="true"\} 3$/m);
  expect(text).toMatch(/^headroom_limit\{provider="local-only"\} 1$/m);
});

test("a provider made local again keeps the settings Redis had, and its held lease still counts", async () => {
  const prefix = freshPrefix();
  const [a, b] = [await host("laptop", prefix), await host("devbox", prefix)];
  await a.client.setLimit("anthropic", 3);
  await a.client.setProvider("anthropic", { shared: true });
  await b.client.setLimit("anthropic", 9);
  await b.client.setProvider("anthropic", { shared: true });
  await b.client.setLimit("anthropic", 2);
  const held = await a.client.acquire({ providerId: "anthropic" });
  await until(() => entry(a, "anthropic"), (e) => e?.limit === 2, "laptop to see devbox's limit");

  await a.client.setProvider("anthropic", { shared: false });
  const local = await entry(a, "anthropic");
  expect(local).toMatchObject({ limit: 2, active: 1 });
  expect(local?.shared).toBeUndefined();
  expect((await a.client.provider("anthropic")).shared).toBeUndefined();
  expect(await a.client.release(held.leaseId, "success")).toEqual({ released: true });
  // Its lease left Redis with it: devbox alone now, with the whole limit.
  await until(() => entry(b, "anthropic"), (e) => e?.hosts === 1 && e.active === 0, "devbox alone");
});

test("a shared provider stays shared across a host restart, and an admission waits while it rejoins", async () => {
  const prefix = freshPrefix();
  const dataDir = tempDir();
  const first = await host("laptop", prefix, dataDir);
  await first.client.setLimit("anthropic", 1);
  await first.client.setProvider("anthropic", { shared: true });
  const lease = await first.client.acquire({ providerId: "anthropic", ttlMs: 60_000 });
  await first.stop();
  started.splice(started.indexOf(first), 1);

  const again = await host("laptop", prefix, dataDir);
  expect((await again.client.provider("anthropic")).shared).toBe(true);
  // The lease it held before the restart still holds the one slot, in Redis too.
  await expect(again.client.acquire({ providerId: "anthropic", timeoutMs: 300 })).rejects.toMatchObject({ status: 408 });
  expect(await again.client.release(lease.leaseId, "success")).toEqual({ released: true });
  const next = await again.client.acquire({ providerId: "anthropic", timeoutMs: 5_000 });
  await again.client.release(next.leaseId, "success");
});

test("without Redis, sharing is refused with the variable to set", async () => {
  const plain = await startTestHost();
  started.push(plain);
  await plain.client.setLimit("anthropic", 1);
  const error = await plain.client.setProvider("anthropic", { shared: true }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 400, code: "invalid_input" });
  expect((error as ApiError).message).toContain("HEADROOM_REDIS_URL");
  expect((await plain.client.health()).redis).toBeUndefined();
});

test("while Redis is unreachable the host runs: /health and the status say so, local providers admit, shared ones wait with the reason", () =>
  onOwnRedis(async (own, options) => {
    await shareThenStop(options, 2);
    await own.down();

    const h = await startTestHost(options);
    started.push(h);
    const health = await until(() => h.client.health(), (x) => x.redis?.error !== undefined, "the connection error");
    expect(health.redis?.connected).toBe(false);
    expect(JSON.stringify(health)).not.toContain("redis://");
    await h.client.setLimit("local-only", 1);
    const local = await h.client.acquire({ providerId: "local-only", timeoutMs: 1_000 });
    await h.client.release(local.leaseId, "success");

    expect((await entry(h, "anthropic"))?.waitReason).toMatch(/Redis/);
    const waiting = h.client.acquire({ providerId: "anthropic", timeoutMs: 30_000 });
    await own.up();
    const admitted = await waiting;
    expect(admitted.leaseId.startsWith("laptop.")).toBe(true);
    await until(() => h.client.health(), (x) => x.redis?.connected === true, "Redis back");
    const back = await until(() => entry(h, "anthropic"), (e) => e?.active === 1, "the admission in the status");
    expect(back?.waitReason).toBeUndefined();
    await h.client.release(admitted.leaseId, "success");
  }));

test("a restarted host releases what its last run held in Redis and no longer holds (a proxy lease), and never reuses its ids", async () => {
  const prefix = freshPrefix();
  const dataDir = tempDir();
  const first = await host("laptop", prefix, dataDir);
  await first.client.setLimit("anthropic", 1);
  await first.client.setProvider("anthropic", { shared: true });
  // A proxy's lease: the connection is the lease, so nothing keeps it on disk.
  const proxied = await first.host.service.acquire({ providerId: "anthropic", expires: false });
  await first.stop();
  started.splice(started.indexOf(first), 1);

  const again = await host("laptop", prefix, dataDir);
  const next = await again.client.acquire({ providerId: "anthropic", timeoutMs: 10_000 });
  expect(next.leaseId).not.toBe(proxied.leaseId);
  const list = await again.client.leases("anthropic");
  expect(list.held.map((lease) => lease.leaseId)).toEqual([next.leaseId]);
  await again.client.release(next.leaseId, "success");
});

test("a restored lease released before Redis answers is not brought back by the next start", () =>
  onOwnRedis(async (own, options) => {
    const lease = await shareThenStop(options, 1, (first) => first.client.acquire({ providerId: "anthropic", ttlMs: 600_000 }));
    await own.down();

    const offline = await startTestHost(options);
    expect(await offline.client.release(lease!.leaseId, "success")).toEqual({ released: true });
    await offline.stop();
    await own.up();

    const back = await startTestHost(options);
    started.push(back);
    const next = await back.client.acquire({ providerId: "anthropic", timeoutMs: 10_000 });
    expect((await back.client.leases("anthropic")).held.map((held) => held.leaseId)).toEqual([next.leaseId]);
    await back.client.release(next.leaseId, "success");
  }));

test("making a provider local again moves a waiter still waiting for Redis to the local queue", () =>
  onOwnRedis(async (own, options) => {
    await shareThenStop(options, 1);
    await own.down();

    const h = await startTestHost(options);
    started.push(h);
    const waiting = h.client.acquire({ providerId: "anthropic", timeoutMs: 30_000 });
    await until(() => entry(h, "anthropic"), (e) => e?.waitReason !== undefined, "the wait reason");
    await h.client.setProvider("anthropic", { shared: false });
    const admitted = await waiting;
    expect((await entry(h, "anthropic"))?.active).toBe(1);
    await h.client.release(admitted.leaseId, "success");
  }));
