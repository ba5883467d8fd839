// Redis restarted empty (SPEC §7): the hosts re-register the leases they hold and enqueue
// their waiters again, the settings are re-seeded from the newest change any host saw, new
// admissions wait 10 s for the re-registrations, and one that comes later is accepted and
// logged. Real redis-server (nothing saved, so a restart loses everything), fake clock.
import { expect, test } from "vitest";
import { createFakeClock } from "../support/fake-clock";
import { track } from "../support/pool-harness";
import { freshPrefix, sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis();

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

test("after Redis restarts empty, leases are re-registered, the newest settings win and the limit holds", async () => {
  const clock = createFakeClock();
  const keyPrefix = freshPrefix();
  const logs: string[] = [];
  // No heartbeats: each host touches Redis only when the test says, so the order is the test's.
  const quiet = { keyPrefix, refreshMs: 0 };
  const a = (await sharedPool(redis.link, clock, { limit: 4 }, { ...quiet, host: "a" })).pool;
  const b = (await sharedPool(redis.link, clock, {}, { ...quiet, host: "b" })).pool;
  const c = (await sharedPool(redis.link, clock, {}, { ...quiet, host: "c", log: (m) => logs.push(m) })).pool;
  await a.setLimit(3); // the newest change: version 1; b and c last saw limit 4 (version 0)
  const leaseA = await a.acquire();
  await b.acquire();
  await c.acquire();
  const queuedOnB = track(b.acquire());
  await b.settled();
  expect(await a.status()).toMatchObject({ limit: 3, active: 3, queued: 1 });

  await redis.server.down();
  await redis.server.up(); // empty
  await until(() => redis.link.connected);

  const newOnB = track(b.acquire()); // b comes back first, offering limit 4 (version 0)
  await b.settled();
  expect(await b.status()).toMatchObject({
    limit: 4,
    active: 1,
    queued: 2,
    // Free slots, yet nobody admitted: the status says why, and for how long.
    waitReason: "Redis restarted empty: new admissions to shared provider anthropic wait 10 s more for every host to re-register its leases.",
  });
  expect(queuedOnB.settled || newOnB.settled).toBe(false);

  clock.advance(5_000);
  expect(await a.status()).toMatchObject({ limit: 3, active: 2, queued: 2 }); // a's newer settings win

  clock.advance(5_000); // the window closes: b's timer drives the queue
  await b.settled();
  expect((await b.status()).waitReason).toBeUndefined();
  expect(queuedOnB.result).toMatchObject({ ok: true }); // the third slot, taken by the first waiter
  expect(newOnB.settled).toBe(false);
  expect(await c.status()).toMatchObject({ limit: 3, active: 4 }); // c is late: taken over the limit
  expect(logs).toEqual([
    "1 lease(s) of c on shared provider anthropic re-registered after the 10 s window; they may exceed the limit until released",
  ]);

  if (leaseA.ok) expect(await a.release(leaseA.lease.leaseId, "success")).toBe(true);
  await b.settled();
  expect(newOnB.settled).toBe(false); // 3 held of 3: the late lease counts
  for (const pool of [a, b, c]) await pool.dispose();
}, 30_000);
