// While Redis is unreachable (SPEC §7): admissions to a shared provider wait, its status says
// why, and a release is kept and delivered once Redis is back. The server appends and fsyncs
// every write, so, killed and started again on the same port, it comes back with its data.
import { expect, test } from "vitest";
import { redisUnreachableReason } from "../../electron/shared-pool/shared-status";
import { createFakeClock } from "../support/fake-clock";
import { track } from "../support/pool-harness";
import { sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis({ persist: true });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

test("while Redis is down admissions wait with a waitReason, and a release is delivered when it is back", async () => {
  const clock = createFakeClock();
  const { pool } = await sharedPool(redis.link, clock, { limit: 1 });
  const first = await pool.acquire();
  if (!first.ok) throw new Error("expected an admission");
  const queued = track(pool.acquire());
  await pool.settled();
  expect(await pool.status()).toMatchObject({ active: 1, queued: 1 }); // as a window last saw it

  await redis.server.down();
  await until(() => !redis.link.connected);
  const late = track(pool.acquire());
  const released = pool.release(first.lease.leaseId, "success");
  expect(await pool.status()).toMatchObject({
    active: 1,
    queued: 2,
    waitReason: redisUnreachableReason("anthropic"),
  });

  await redis.server.up();
  expect(await released).toBe(true); // kept while Redis was away, delivered once
  await pool.settled();
  expect(queued.result).toMatchObject({ ok: true, lease: { leaseId: "host-a.2" } });
  expect(late.settled).toBe(false);
  const status = await pool.status();
  expect(status).toMatchObject({ active: 1, queued: 1 });
  expect(status).not.toHaveProperty("waitReason");
  await pool.dispose();
}, 30_000);

test("a waiter's deadline holds while Redis is down, and an admission Redis made first goes back unused", async () => {
  const clock = createFakeClock();
  const { pool } = await sharedPool(redis.link, clock, { limit: 1 });
  const first = await pool.acquire();
  if (!first.ok) throw new Error("expected an admission");
  const waiter = track(pool.acquire({ timeoutMs: 1_000 }));
  await pool.settled();
  expect(await pool.status()).toMatchObject({ active: 1, queued: 1 });

  await redis.server.down();
  await until(() => !redis.link.connected);
  // Sent before the deadline: once Redis is back this release admits the waiter, which gave up meanwhile.
  const released = pool.release(first.lease.leaseId, "success");
  clock.advance(1_000);
  await until(() => waiter.settled);
  expect(waiter.result).toEqual({ ok: false, failure: { kind: "timeout" } });

  await redis.server.up();
  expect(await released).toBe(true);
  await pool.settled();
  await until(() => redis.link.connected);
  await pool.settled();
  // The slot the given-up waiter was handed came back unused: free, not held and not recycling.
  expect(await pool.status()).toMatchObject({ active: 0, queued: 0, recycling: 0 });
  const next = await pool.acquire({ timeoutMs: 0 });
  expect(next.ok).toBe(true);
  await pool.dispose();
}, 30_000);
