// A Redis stall longer than a lease's TTL (SPEC §3: the TTL counts from delivery). The stall is
// `DEBUG SLEEP` on a real redis-server; the hosts' clock is fake, so the 8 s the stall stands for
// pass in an instant: the release sent before it reaches Redis with the old time, everything
// sent during it with the new one.
import { Redis } from "ioredis";
import { expect, test } from "vitest";
import { connectRedis } from "../../electron/shared-pool/redis-link";
import { redisUnreachableReason } from "../../electron/shared-pool/shared-status";
import { createFakeClock } from "../support/fake-clock";
import { track } from "../support/pool-harness";
import { sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis({ debug: true });

test("a lease admitted by a release that Redis answered after a long stall is delivered with its full TTL, and the limit holds", async () => {
  const clock = createFakeClock();
  const { pool } = await sharedPool(redis.link, clock, { limit: 1 });
  const x = await pool.acquire();
  if (!x.ok) throw new Error("expected an admission");
  const y = track(pool.acquire({ ttlMs: 5_000 }));
  await pool.settled();
  expect(y.settled).toBe(false);

  const stalling = new Redis(redis.server.url);
  await stalling.ping();
  const slept = stalling.call("DEBUG", "SLEEP", "0.5");
  await new Promise((resolve) => setTimeout(resolve, 100)); // the DEBUG SLEEP is running
  const released = pool.release(x.lease.leaseId, "success");
  clock.advance(8_000);
  const z = track(pool.acquire());
  await slept;
  expect(await released).toBe(true);
  await pool.settled();

  if (!y.result?.ok) throw new Error(`y was not admitted: ${JSON.stringify(y.result)}`);
  expect(y.result.lease.expiresAt).toBeGreaterThanOrEqual(clock.now() + 5_000);
  expect(await pool.heartbeat(y.leaseId)).toMatchObject({ leaseId: y.leaseId });
  await pool.settled();
  expect(z.settled).toBe(false); // y holds the one slot
  expect(await pool.status()).toMatchObject({ active: 1, queued: 1 });

  stalling.disconnect();
  await pool.dispose();
}, 20_000);

test("while a stalled Redis does not answer, a shared provider's queued waiters show the waitReason", async () => {
  const link = connectRedis(redis.server.url, { pingEveryMs: 100 });
  const clock = createFakeClock();
  const { pool } = await sharedPool(link, clock, { limit: 1 });
  const x = await pool.acquire();
  if (!x.ok) throw new Error("expected an admission");
  const y = track(pool.acquire());
  await pool.settled();
  expect(await pool.status()).not.toHaveProperty("waitReason");

  const stalling = new Redis(redis.server.url);
  const slept = stalling.call("DEBUG", "SLEEP", "1");
  while (link.answering) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await pool.status()).toMatchObject({ active: 1, queued: 1, waitReason: redisUnreachableReason("anthropic") });
  expect(y.settled).toBe(false);

  await slept;
  while (!link.answering) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await pool.status()).not.toHaveProperty("waitReason");
  stalling.disconnect();
  await pool.dispose();
  await link.close();
}, 20_000);
