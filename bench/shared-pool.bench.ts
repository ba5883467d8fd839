// Issue 11, cost: what sharing a provider on Redis adds to an admission. One acquire + release
// on a shared provider is two script calls (two round trips); the target is p50 ≤ 2.5× a bare
// PING round trip to the same redis-server on this machine. The local pool is the floor.
// Samples alternate between the three in blocks, so a busy moment on the shared 2-core
// machine hits all of them alike. Then admissions per second with 3 hosts (3 connections,
// 3 SharedPools in this process) sharing one provider at limit 4, and through 3 real serve
// processes' proxies against 1 with the provider local (shared-serve-hosts.ts).
import type { BenchSection } from "./bench-types";
import { systemClock } from "../electron/engine/clock";
import { createProviderPool } from "../electron/engine/provider-pool";
import type { PoolConfig } from "../electron/engine/pool-types";
import { redisClock } from "../electron/shared-pool/redis-clock";
import { connectRedis, type RedisLink } from "../electron/shared-pool/redis-link";
import { SharedPool } from "../electron/shared-pool/shared-pool";
import { startRedisServer } from "../tests/support/redis-server";
import { withinTime } from "./deadline";
import { serveHostsThroughput } from "./shared-serve-hosts";
import { formatMs, formatRate, percentile } from "./stats";

const BLOCKS = 20;
const PER_BLOCK = 250;
const TARGET_RATIO = 2.5;
const HOSTS = 3;
const LIMIT = 4;
const LANES_PER_HOST = 4;
const THROUGHPUT_MS = 3_000;
const config: PoolConfig = { limit: LIMIT, cooldownMs: 0, autoReduced: false, noticeDismissed: false };

async function timed(samples: number[], times: number, step: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await step();
    samples.push(performance.now() - start);
  }
}

async function sharedPoolOn(link: RedisLink, host: string, keyPrefix: string): Promise<SharedPool> {
  const pool = new SharedPool({ providerId: "bench", host, keyPrefix, redis: link, clock: await redisClock(link, systemClock) });
  await pool.start(config);
  return pool;
}

async function admitRelease(pool: { acquire: SharedPool["acquire"]; release: (id: string, outcome: "success") => unknown }) {
  const result = await pool.acquire();
  if (!result.ok) throw new Error(`bench admission failed: ${result.failure.kind}`);
  await pool.release(result.lease.leaseId, "success");
}

async function latency(link: RedisLink): Promise<BenchSection> {
  const shared = await sharedPoolOn(link, "bench-latency", "bench-latency");
  let ids = 0;
  const local = createProviderPool(config, { providerId: "bench", clock: systemClock, newId: () => `L${++ids}` });
  const samples = { ping: [] as number[], shared: [] as number[], local: [] as number[] };
  const ratios: number[] = [];
  await timed([], PER_BLOCK, () => admitRelease(shared)); // warm-up: scripts loaded, JIT warm
  for (let block = 0; block < BLOCKS; block++) {
    const ping: number[] = [];
    const sharedBlock: number[] = [];
    await timed(ping, PER_BLOCK, () => link.ping());
    await timed(sharedBlock, PER_BLOCK, () => admitRelease(shared));
    await timed(samples.local, PER_BLOCK, () => admitRelease(local));
    samples.ping.push(...ping);
    samples.shared.push(...sharedBlock);
    ratios.push(percentile(sharedBlock, 0.5) / percentile(ping, 0.5));
  }
  await shared.dispose();
  local.dispose();
  const figure = (s: number[]) => `p50 ${formatMs(percentile(s, 0.5))} · p99 ${formatMs(percentile(s, 0.99))}`;
  const ratio = percentile(ratios, 0.5);
  return {
    title: `Shared provider on Redis: acquire + release latency (${(BLOCKS * PER_BLOCK).toLocaleString("en")} each, sequential)`,
    rows: [
      { name: "bare Redis PING round trip", value: figure(samples.ping) },
      {
        name: "shared pool acquire + release (2 script calls)",
        value: figure(samples.shared),
        ratio: `${ratio.toFixed(2)}× PING (p50, median of ${BLOCKS} blocks); p99 ${(percentile(samples.shared, 0.99) / percentile(samples.ping, 0.99)).toFixed(2)}× PING`,
      },
      {
        name: "local pool acquire + release",
        value: figure(samples.local),
        ratio: `shared − local p50: ${formatMs(percentile(samples.shared, 0.5) - percentile(samples.local, 0.5))}`,
      },
    ],
    target: { text: `p50 ≤ ${TARGET_RATIO}× PING (this run: ${ratio.toFixed(2)}×)`, met: ratio <= TARGET_RATIO },
    notes: [
      "redis-server 7.0 (Debian) on 127.0.0.1, started by the bench with nothing saved to disk; ioredis 6.0.0; one host, limit 4, cooldown 0, so every acquire is admitted at once.",
      "The ratio is taken block by block (PING, then shared, then local, 250 each) and its median reported, so load from other processes moves both sides alike.",
    ],
  };
}


async function throughput(url: string): Promise<BenchSection> {
  const rates: { hosts: number; perSecond: number }[] = [];
  for (const hosts of [1, HOSTS]) {
    const links = Array.from({ length: hosts }, () => connectRedis(url));
    const keyPrefix = `bench-throughput-${hosts}`;
    const pools = await Promise.all(links.map((link, i) => sharedPoolOn(link, `host-${i + 1}`, keyPrefix)));
    let admissions = 0;
    const endAt = performance.now() + THROUGHPUT_MS;
    const lane = async (pool: SharedPool) => {
      while (performance.now() < endAt) {
        await admitRelease(pool);
        admissions++;
      }
    };
    const start = performance.now();
    await withinTime(
      Promise.all(pools.flatMap((pool) => Array.from({ length: LANES_PER_HOST }, () => lane(pool)))),
      THROUGHPUT_MS * 10,
      `${hosts} hosts`,
    );
    rates.push({ hosts, perSecond: admissions / ((performance.now() - start) / 1000) });
    await Promise.all(pools.map((pool) => pool.dispose()));
    await Promise.all(links.map((link) => link.close()));
  }
  const [one, many] = rates as [(typeof rates)[0], (typeof rates)[0]];
  return {
    title: `Shared provider on Redis: admissions per second at limit ${LIMIT}`,
    rows: [
      { name: `1 host, ${LANES_PER_HOST} lanes`, value: formatRate(one.perSecond, "admissions/s") },
      {
        name: `${HOSTS} hosts (3 connections), ${LANES_PER_HOST} lanes each`,
        value: formatRate(many.perSecond, "admissions/s"),
        ratio: `${(many.perSecond / one.perSecond).toFixed(2)}× 1 host`,
      },
    ],
    notes: [
      `Each lane loops acquire → release (cooldown 0) for ${THROUGHPUT_MS / 1000} s; the hosts are SharedPools on their own connections in this one process, so they share its CPU with each other and with redis-server.`,
    ],
  };
}

export default async function sharedPoolBench(): Promise<BenchSection[]> {
  const server = await startRedisServer();
  const link = connectRedis(server.url);
  try {
    return [await latency(link), await throughput(server.url), await serveHostsThroughput(server)];
  } finally {
    await link.close();
    await server.stop();
  }
}
