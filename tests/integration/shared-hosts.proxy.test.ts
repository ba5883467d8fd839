// Issue 11, "Across hosts", with nothing in-process: three `npm run serve` processes on one
// redis-server share providers (SPEC §7), each with its own gating proxy in front of the fake
// provider (SPEC §6). What a team would notice: one limit across all machines at the
// provider, one queue in arrival order whichever machine asked, and one reduction for a
// burst of 429s wherever they landed.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Admission } from "../../shared/types";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { post } from "../support/proxy-harness";
import { freshPrefix } from "../support/shared-pool-harness";
import { drained, entries, shareProvider, startSharedHosts, stopSharedHosts, until, type SharedServeHost } from "../support/shared-serve-hosts";
import { useRedisServer } from "../support/use-redis";

const redis = useRedisServer();
let hosts: SharedServeHost[] = [];
const fakes: FakeProvider[] = [];

beforeAll(async () => {
  hosts = await startSharedHosts(redis.server.url, freshPrefix(), ["laptop", "devbox", "ci"]);
}, 60_000);

afterAll(async () => {
  await stopSharedHosts(hosts);
  await Promise.all(fakes.map((fake) => fake.close()));
});

async function fakeProvider(options: Parameters<typeof startFakeProvider>[0]): Promise<FakeProvider> {
  const fake = await startFakeProvider(options);
  fakes.push(fake);
  return fake;
}

const message = { model: "fake-claude", max_tokens: 8, messages: [{ role: "user", content: "hi" }] };

test("300 requests through 3 hosts' proxies and API leases never have more than 4 at the provider, and every slot comes back", async () => {
  const fake = await fakeProvider({ events: 2, eventDelayMs: 4 });
  await shareProvider(hosts, "anthropic", { limit: 4, cooldownMs: 0, upstream: fake.url });

  const answers: number[] = [];
  /** An agent behind the proxy: only its base URL changed. */
  const throughProxy = async (host: SharedServeHost, count: number) => {
    for (let i = 0; i < count; i++) answers.push((await post(`${host.proxyUrl}/anthropic/v1/messages`, message)).status);
  };
  /** An agent that asks for a lease, calls the provider itself, and gives the lease back. */
  const withLease = async (host: SharedServeHost, count: number) => {
    for (let i = 0; i < count; i++) {
      const lease = await host.client.acquire({ providerId: "anthropic", agentId: `${host.name}-api` });
      answers.push((await post(`${fake.url}/v1/messages`, message)).status);
      expect(await host.client.release(lease.leaseId, "success")).toEqual({ released: true });
    }
  };
  // Per host: 4 proxy lanes of 20 and 2 lease lanes of 10 — 15 agents for 4 slots, 300 requests.
  const startedAt = Date.now();
  await Promise.all(hosts.flatMap((host) => [...Array.from({ length: 4 }, () => throughProxy(host, 20)), withLease(host, 10), withLease(host, 10)]));
  const tookMs = Date.now() - startedAt;

  expect(answers).toHaveLength(300);
  expect(answers.every((status) => status === 200)).toBe(true);
  expect(fake.stats.generations).toBe(300);
  expect(fake.stats.rateLimited).toBe(0);
  expect(fake.stats.maxConcurrent).toBeLessThanOrEqual(4);
  expect(fake.stats.maxConcurrent).toBe(4);
  await drained(hosts, "anthropic");
  for (const host of hosts) expect(await host.client.leases("anthropic")).toEqual({ held: [], waiting: [] });
  console.info(`shared hosts: 300 requests through 3 serve hosts at limit 4 in ${tookMs} ms, at most ${fake.stats.maxConcurrent} upstream at once`);
}, 90_000);

test("waiters queued on different hosts are admitted in the order they arrived, whichever host frees the slot", async () => {
  await shareProvider(hosts, "fifo", { limit: 4, cooldownMs: 0 });
  const [laptop, devbox, ci] = hosts as [SharedServeHost, SharedServeHost, SharedServeHost];
  const held: { host: SharedServeHost; leaseId: string }[] = [];
  for (const host of [laptop, laptop, devbox, ci]) held.push({ host, leaseId: (await host.client.acquire({ providerId: "fifo" })).leaseId });

  const admitted: { agentId: string; lease: Admission; host: SharedServeHost }[] = [];
  const waiters: Promise<unknown>[] = [];
  for (let i = 0; i < 6; i++) {
    const host = hosts[i % 3]!;
    const agentId = `w${i}`;
    const waiter = host.client.acquire({ providerId: "fifo", agentId, timeoutMs: 60_000 }).then((lease) => admitted.push({ agentId, lease, host }));
    waiter.catch(() => undefined); // awaited below; a failed test must not leave it unhandled
    waiters.push(waiter);
    // Each is in the shared queue before the next is asked for, so the arrival order is known.
    await until(() => host.client.leases("fifo"), (list) => list.waiting.length === i + 1, `waiter ${agentId} queued on ${host.name}`);
  }
  const queue = (await ci.client.leases("fifo")).waiting;
  expect(queue.map((waiter) => [waiter.agentId, waiter.host])).toEqual([
    ["w0", "laptop"], ["w1", "devbox"], ["w2", "ci"], ["w3", "laptop"], ["w4", "devbox"], ["w5", "ci"],
  ]);

  for (let k = 0; k < 6; k++) {
    // One slot at a time, from whichever host holds the oldest lease: exactly the next in line gets it.
    const { host, leaseId } = held.shift()!;
    expect(await host.client.release(leaseId, "success")).toEqual({ released: true });
    await until(async () => admitted.length, (n) => n >= k + 1, `waiter w${k} admitted`);
    expect(admitted.map((a) => a.agentId)).toEqual(Array.from({ length: k + 1 }, (_, i) => `w${i}`));
    const next = admitted[k]!;
    held.push({ host: next.host, leaseId: next.lease.leaseId });
  }
  await Promise.all(waiters);
  for (const { host, leaseId } of held) await host.client.release(leaseId, "success");
  await drained(hosts, "fifo");
}, 60_000);

test("a burst of 429s seen on 3 hosts lowers the shared limit once, from 4 to 3", async () => {
  const fake = await fakeProvider({ events: 1, eventDelayMs: 1 });
  await shareProvider(hosts, "burst", { limit: 4, cooldownMs: 0, upstream: fake.url });
  let answerBurst!: () => void;
  const burstArrived = new Promise<void>((resolve) => (answerBurst = resolve));
  fake.script(...Array.from({ length: 4 }, () => ({ status: 429, headers: { "retry-after": "1" }, after: burstArrived })));

  const [laptop, devbox, ci] = hosts as [SharedServeHost, SharedServeHost, SharedServeHost];
  const send = (host: SharedServeHost) => post(`${host.proxyUrl}/burst/v1/messages`, message);
  // The four slots taken on all three hosts, then one more request on each of two hosts waits.
  const requests = [laptop, laptop, devbox, ci].map(send);
  await until(async () => fake.stats.inFlight, (n) => n === 4, "the four admitted requests at the provider");
  requests.push(send(devbox), send(ci));
  await until(() => entries(hosts, "burst"), (all) => all.every((entry) => entry?.active === 4 && entry.queued === 2), "two queued");
  // The provider answers all four slots 429 at once.
  answerBurst();
  const statuses = (await Promise.all(requests)).map((answer) => answer.status);
  expect(statuses).toEqual([429, 429, 429, 429, 200, 200]);

  const after = await until(() => entries(hosts, "burst"), (all) => all.every((entry) => entry?.limit === 3), "every host to show limit 3");
  for (const entry of after) expect(entry).toMatchObject({ limit: 3, autoReduced: true, autoReducedFrom: 4 });
  const histories = await Promise.all(hosts.map(async (host) => (await host.client.history()).events.filter((event) => event.providerId === "burst")));
  const reduced = histories.flat().filter((event) => event.kind === "reduced");
  expect(reduced).toHaveLength(1);
  // Each host recorded the 429s its own proxy passed on: 2, 1 and 1.
  expect(histories.map((events) => events.filter((event) => event.kind === "rate_limited").length)).toEqual([2, 1, 1]);
  await drained(hosts, "burst");
}, 60_000);

test("a 529 on one host opens the shared route on every host, and half-open it lets one probe through across the 3 hosts", async () => {
  const fake = await fakeProvider({ events: 1, eventDelayMs: 1 });
  const [laptop, devbox, ci] = hosts as [SharedServeHost, SharedServeHost, SharedServeHost];
  // Redis takes the breaker settings of the first host to share the provider.
  await laptop.client.setRouteSettings({ threshold: 1, cooldownMs: 1_000 });
  await shareProvider(hosts, "routes", { limit: 4, cooldownMs: 0, upstream: fake.url });
  const send = (host: SharedServeHost) => post(`${host.proxyUrl}/routes/v1/messages`, message);
  const routeOn = async (host: SharedServeHost) => (await host.client.routes()).routes.find((route) => route.targetId === "routes");

  fake.script(529);
  expect((await send(devbox)).status).toBe(529);
  const refused = await send(ci);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("x-headroom-error")).toBe("route_open");
  expect(fake.stats.generations).toBe(1);

  await until(() => Promise.all(hosts.map(routeOn)), (all) => all.every((route) => route?.state === "half-open"), "the route half-open on every host");
  let answerProbe!: () => void;
  fake.script({ status: 200, body: { type: "message", content: [] }, after: new Promise<void>((resolve) => (answerProbe = resolve)) });
  const answers = hosts.map(send);
  await until(async () => fake.stats.inFlight, (n) => n === 1, "the probe at the provider");
  const settled = await until(
    () => Promise.all(answers.map((answer) => Promise.race([answer.then((a) => a.status), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10))]))),
    (statuses) => statuses.filter((status) => status === 503).length === 2,
    "the other two hosts to refuse the route while it is probed",
  );
  expect(fake.stats.generations).toBe(2);
  answerProbe();
  const statuses = await Promise.all(answers.map(async (answer) => (await answer).status));
  expect(statuses.sort()).toEqual([200, 503, 503]);
  expect(settled.filter((status) => status === undefined)).toHaveLength(1);
  for (const answer of await Promise.all(answers)) if (answer.status === 503) expect(answer.headers.get("x-headroom-error")).toBe("route_probing");
  await until(() => Promise.all(hosts.map(routeOn)), (all) => all.every((route) => route?.state === "closed"), "the route closed on every host");
  expect((await send(laptop)).status).toBe(200);
  await drained(hosts, "routes");
}, 60_000);
