// SPEC §8 "Shared providers" and its bounds, against a real redis-server: answers full of window
// names that are not the account's (model-scoped ones, or junk an upstream sends) must never
// keep a real `5h` from the other hosts. Redis kept the first 8 names it ever saw and renewed
// them, so 4,000 answers with junk names kept a `5h` at 97 % from ever reaching another host
// (its hold at 90 % admitted). The account's windows always keep a place; other names age out.
import { Redis } from "ioredis";
import { afterEach, expect, test } from "vitest";
import { readWindowHeaders } from "../../electron/engine/window-readings";
import type { WindowSighting } from "../../electron/engine/window-readings";
import { createFakeClock } from "../support/fake-clock";
import { freshPrefix, sharedPool } from "../support/shared-pool-harness";
import { until } from "../support/shared-serve-hosts";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";
import { useRedis } from "../support/use-redis";

const redis = useRedis();
const started: TestHost[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  for (const h of started.splice(0)) {
    await h.stop();
    removeDir(h.dataDir);
  }
  for (const client of clients.splice(0)) client.disconnect();
});

const DAY = 24 * 3_600_000;
const epochS = (ms: number) => String(Math.ceil(ms / 1000));

async function sharedHost(name: string, prefix: string): Promise<TestHost> {
  const h = await startTestHost({ redis: { url: redis.server.url, prefix, hostName: name } });
  started.push(h);
  await h.client.setLimit("anthropic", 2);
  await h.client.setProvider("anthropic", { shared: true });
  return h;
}

function redisClient(): Redis {
  const client = new Redis(redis.server.url);
  clients.push(client);
  return client;
}

/** One answer's headers: two window names never seen before, as an upstream could send them. */
function junkAnswer(i: number): Record<string, string> {
  const reset = epochS(Date.now() + 3_600_000);
  const headers: Record<string, string> = { "anthropic-ratelimit-unified-status": "allowed" };
  for (const name of [`junk${i}_a`, `junk${i}_b`]) {
    headers[`anthropic-ratelimit-unified-${name}-utilization`] = "0.5";
    headers[`anthropic-ratelimit-unified-${name}-reset`] = reset;
  }
  return headers;
}

test("after 4,000 answers with junk window names, a real 5-hour window at 97 % reaches the other host and holds its new agents", async () => {
  const prefix = freshPrefix();
  const laptop = await sharedHost("laptop", prefix);
  const devbox = await sharedHost("devbox", prefix);
  await devbox.client.setProvider("anthropic", { holdNewAtPercent: 90 });
  const entry = async (h: TestHost) => (await h.client.status()).providers.find((p) => p.providerId === "anthropic")!;
  await until(() => entry(devbox), (e) => e.hosts === 2, "both hosts on the provider");

  // What laptop's proxy does with each answer's headers (electron/proxy/window-observer.ts).
  for (let i = 0; i < 4_000; i++) laptop.host.service.noteWindows("anthropic", readWindowHeaders(junkAnswer(i), Date.now())!);
  const resetS = epochS(Date.now() + 3_600_000);
  const real = {
    "anthropic-ratelimit-unified-status": "allowed",
    "anthropic-ratelimit-unified-5h-status": "allowed_warning",
    "anthropic-ratelimit-unified-5h-utilization": "0.97",
    "anthropic-ratelimit-unified-5h-reset": resetS,
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
    "anthropic-ratelimit-unified-reset": resetS,
  };
  laptop.host.service.noteWindows("anthropic", readWindowHeaders(real, Date.now())!);
  for (let i = 4_000; i < 4_100; i++) laptop.host.service.noteWindows("anthropic", readWindowHeaders(junkAnswer(i), Date.now())!);

  const seen = await until(() => entry(devbox), (e) => e.windows?.some((w) => w.name === "5h" && w.usedPercent === 97) === true, "devbox to read laptop's 97 %", 60_000);
  expect(seen.windows!.length).toBeLessThanOrEqual(8);
  await expect(devbox.client.acquire({ providerId: "anthropic", agentId: "new", timeoutMs: 0 })).rejects.toMatchObject({ status: 408 });
  const held = devbox.client.acquire({ providerId: "anthropic", agentId: "new", timeoutMs: 1_000 }).catch((error: unknown) => error);
  const waiting = await until(() => entry(devbox), (e) => e.queued === 1, "the new agent held on devbox");
  expect(waiting.waitReason).toBe("holding new agents: 5-hour window at 97 %");
  await held;
  expect((await entry(laptop)).windows?.find((w) => w.name === "5h")?.usedPercent).toBe(97);

  // Redis keeps at most 8 names, the 5-hour window among them.
  const client = redisClient();
  const names = await client.hkeys(`${prefix}:anthropic:windows`);
  expect(names.length).toBeLessThanOrEqual(8);
  expect(names).toContain("5h");
  expect(await client.zcard(`${prefix}:anthropic:windows-seen`)).toBeLessThanOrEqual(8);
}, 120_000);

test("a name nobody reads for 8 days is forgotten; the account's windows stay however many others come", async () => {
  const clock = createFakeClock(Date.UTC(2026, 11, 3, 12, 0, 0));
  const keyPrefix = freshPrefix();
  const { pool } = await sharedPool(redis.link, clock, {}, { keyPrefix, refreshMs: 0 }); // no liveness ticks through 8 days of fake time
  const sighting = (name: string, scoped: boolean): WindowSighting => ({ name, usedPercent: 50, seenAt: clock.now(), scoped });
  await pool.noteWindow(undefined, ["5h", "7d", "primary", "secondary", "day"].map((name) => sighting(name, false)));
  await pool.noteWindow(undefined, [sighting("7d_opus", true)]);
  for (let i = 0; i < 20; i++) {
    clock.advance(1);
    await pool.noteWindow(undefined, [sighting(`junk${i}`, true), sighting(`junk${i}_b`, true)]);
  }
  const client = redisClient();
  const key = `${keyPrefix}:anthropic:windows`;
  // The five account windows and the three names read last.
  expect((await client.hkeys(key)).sort()).toEqual(["5h", "7d", "day", "junk19", "junk19_b", "junk18_b", "primary", "secondary"].sort());

  // The account windows were last read 8 days ago to the ms: still kept.
  clock.advance(8 * DAY - 20);
  await pool.noteWindow(undefined, [sighting("5h", false)]);
  expect(await client.hlen(key)).toBe(8);
  // Past 8 days since every other name was read: only the 5-hour window, read again, is left.
  clock.advance(21);
  await pool.noteWindow(undefined, [sighting("5h", false)]);
  expect(await client.hkeys(key)).toEqual(["5h"]);
  expect(await client.zrange(`${keyPrefix}:anthropic:windows-seen`, "0", "-1")).toEqual(["5h"]);
  await pool.dispose();
});
