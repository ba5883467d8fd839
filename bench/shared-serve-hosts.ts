// Issue 11, cost end to end: admissions per second through real `npm run serve` processes'
// gating proxies, one host with the provider local against three hosts sharing it on Redis,
// the same agents (lanes) and the same instant upstream (the fake provider) in both.
import { Agent, request } from "node:http";
import { startFakeProvider } from "../demo/fake-provider";
import type { RedisServer } from "../tests/support/redis-server";
import { startServe } from "../tests/support/serve-process";
import { shareProvider, startSharedHosts, stopSharedHosts, type SharedServeHost } from "../tests/support/shared-serve-hosts";
import { removeDir, tempDir } from "../tests/support/test-host";
import type { BenchSection } from "./bench-types";
import { withinTime } from "./deadline";
import { formatRate } from "./stats";

const LIMIT = 4;
const LANES = 12;
const MEASURE_MS = 4_000;
const BODY = JSON.stringify({ model: "fake-claude", max_tokens: 8, messages: [{ role: "user", content: "hi" }] });

function generate(url: URL, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) } },
      (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url.href} answered ${res.statusCode}`))));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(BODY);
  });
}

/** `LANES` agents spread over the proxies, each looping one request at a time; answers per second. */
async function rate(proxies: string[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  const urls = proxies.map((proxy) => new URL(`${proxy}/bench/v1/messages`));
  for (const url of urls) await generate(url, agent); // warm-up: connections and each host's first admission
  let answered = 0;
  const start = performance.now();
  const endAt = start + MEASURE_MS;
  const lane = async (url: URL) => {
    while (performance.now() < endAt) {
      await generate(url, agent);
      answered++;
    }
  };
  await withinTime(Promise.all(Array.from({ length: LANES }, (_, i) => lane(urls[i % urls.length]!))), MEASURE_MS * 10, `${proxies.length} proxies`);
  const perSecond = answered / ((performance.now() - start) / 1000);
  agent.destroy();
  return perSecond;
}

export async function serveHostsThroughput(redis: RedisServer): Promise<BenchSection> {
  const fake = await startFakeProvider({ events: 0, eventDelayMs: 0 });
  let local: number;
  const lone = await startServe({ dataDir: tempDir("headroom-bench-host-") });
  try {
    await lone.client.setLimit("bench", LIMIT);
    await lone.client.setCooldown("bench", 0);
    await lone.client.setProvider("bench", { upstream: fake.url });
    local = await rate([(await lone.client.hostInfo()).proxyUrl!]);
  } finally {
    await lone.stop();
    removeDir(lone.dataDir);
  }
  let hosts: SharedServeHost[] = [];
  let shared: number;
  try {
    hosts = await startSharedHosts(redis.url, "bench-serve", ["bench-1", "bench-2", "bench-3"]);
    await shareProvider(hosts, "bench", { limit: LIMIT, cooldownMs: 0, upstream: fake.url });
    shared = await rate(hosts.map((host) => host.proxyUrl));
  } finally {
    await stopSharedHosts(hosts);
    await fake.close();
  }
  return {
    title: `Shared provider on Redis: admissions per second through real serve hosts' proxies at limit ${LIMIT}`,
    rows: [
      { name: `1 serve host, provider local, ${LANES} agents through its proxy`, value: formatRate(local, "admissions/s") },
      {
        name: `3 serve hosts sharing the provider on Redis, ${LANES / 3} agents through each proxy`,
        value: formatRate(shared, "admissions/s"),
        ratio: `${(shared / local).toFixed(2)}× 1 local host`,
      },
    ],
    notes: [
      `Each agent loops one non-streamed POST /v1/messages at a time for ${MEASURE_MS / 1000} s (cooldown 0) against the fake provider answering at once; every request is an admission and a release. Agents, fake provider and redis-server share the machine with the serve processes.`,
    ],
  };
}
