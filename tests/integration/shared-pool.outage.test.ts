// Issue 11, "Faults": Redis goes away for 5 s while three host processes are busy on one
// shared provider at limit 4 (it is killed and started again on the same port; it appends
// and fsyncs every write, so it comes back with its data). Nothing may be admitted twice, no
// release may be lost or refused, the waiters are admitted once it is back, and the provider
// never holds more than 4 calls at once.
import { afterAll, beforeAll, expect, test } from "vitest";
import { freshPrefix } from "../support/shared-pool-harness";
import { countingProvider, runHost, type CountingProvider } from "../support/shared-pool-hosts";
import { useRedisServer } from "../support/use-redis";

const HOSTS = 3;
const LIMIT = 4;
const PER_HOST = 150;
const OUTAGE_MS = 5_000;

const redis = useRedisServer({ persist: true });
let provider: CountingProvider;

beforeAll(async () => {
  provider = await countingProvider();
});

afterAll(async () => {
  await provider?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test(`Redis down for 5 s under load: every call admitted once, every release kept, never more than ${LIMIT} at once`, async () => {
  const prefix = freshPrefix();
  const hosts = Promise.all(
    Array.from({ length: HOSTS }, (_, i) =>
      runHost({ redisUrl: redis.server.url, prefix, host: `host-${i + 1}`, limit: LIMIT, target: provider.url, count: PER_HOST, lanes: 4 }),
    ),
  );
  // The hosts are busy (their start takes seconds on a loaded machine). A host that fails
  // ends the wait with its own error, not a timeout.
  const busyBy = Date.now() + 45_000;
  while (provider.seen.calls < 30) {
    await Promise.race([hosts, pause(5)]);
    if (Date.now() > busyBy) throw new Error(`the hosts made ${provider.seen.calls} calls in 45 s, not 30`);
  }
  await redis.server.down();
  const atDown = provider.seen.calls;
  await pause(OUTAGE_MS);
  const duringOutage = provider.seen.calls - atDown;
  await redis.server.up();
  const runs = await hosts;

  expect(atDown).toBeLessThan(HOSTS * PER_HOST); // the outage came under load
  // Only calls admitted before Redis went away can start while it is gone.
  expect(duringOutage).toBeLessThanOrEqual(LIMIT);
  expect(runs.map((r) => [r.failures, r.refused])).toEqual([[0, 0], [0, 0], [0, 0]]);
  expect(runs.reduce((sum, r) => sum + r.admitted, 0)).toBe(HOSTS * PER_HOST);
  expect(provider.seen.calls).toBe(HOSTS * PER_HOST);
  expect(provider.seen.most).toBeLessThanOrEqual(LIMIT);
  console.info(`outage: ${atDown} calls before, ${duringOutage} during, ${HOSTS * PER_HOST - atDown - duringOutage} after`);
}, 90_000);
