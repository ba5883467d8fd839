// Across processes (issue 11, "Across hosts", bounded): three host processes share one
// provider at limit 4 on a real redis-server and call a provider that counts how many calls
// it holds at once. However the hosts' lanes interleave, it never holds more than 4.
import { afterAll, beforeAll, expect, test } from "vitest";
import { freshPrefix } from "../support/shared-pool-harness";
import { countingProvider, runHost, type CountingProvider } from "../support/shared-pool-hosts";
import { useRedisServer } from "../support/use-redis";

const HOSTS = 3;
const LIMIT = 4;
const PER_HOST = 40;

const redis = useRedisServer();
let provider: CountingProvider;

beforeAll(async () => {
  provider = await countingProvider();
});

afterAll(async () => {
  await provider?.close();
});

test(`${HOSTS} host processes at limit ${LIMIT} never hold more than ${LIMIT} provider calls at once`, async () => {
  const prefix = freshPrefix();
  const hosts = await Promise.all(
    Array.from({ length: HOSTS }, (_, i) =>
      runHost({ redisUrl: redis.server.url, prefix, host: `host-${i + 1}`, limit: LIMIT, target: provider.url, count: PER_HOST, lanes: 4 }),
    ),
  );
  expect(hosts.map((h) => [h.failures, h.refused])).toEqual([[0, 0], [0, 0], [0, 0]]);
  expect(hosts.reduce((sum, h) => sum + h.admitted, 0)).toBe(HOSTS * PER_HOST);
  expect(provider.seen.calls).toBe(HOSTS * PER_HOST);
  expect(provider.seen.most).toBeLessThanOrEqual(LIMIT);
  // The limit was shared, not split: at some moment all of it was in use.
  expect(provider.seen.most).toBe(LIMIT);
}, 60_000);
