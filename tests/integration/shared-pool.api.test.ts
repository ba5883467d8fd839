// What the service's adapter asks of a shared provider beyond admission and release, against a
// real redis-server on a fake clock: adopting leases Redis did not know of, every host's leases
// and waiters, a 429 on a lease that stays held, the early pause, and hearing other hosts' changes.
import { describe, expect, test, vi } from "vitest";
import { PAUSED_BY_429, PAUSED_BY_UPSTREAM_HEADERS } from "../../electron/engine/pool-messages";
import type { SharedPool } from "../../electron/shared-pool/shared-pool";
import { scriptArgs } from "../../electron/shared-pool/pool-protocol";
import { createFakeClock } from "../support/fake-clock";
import { track } from "../support/pool-harness";
import { freshPrefix, sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis();

async function admit(pool: SharedPool, options: Parameters<SharedPool["acquire"]>[0] = {}): Promise<string> {
  const result = await pool.acquire(options);
  if (!result.ok) throw new Error(`expected an admission, got ${result.failure.kind}`);
  return result.lease.leaseId;
}

describe("adopting leases Redis does not know of", () => {
  test("adopted leases count at once, over the limit, and release and wake the other host's waiter as any lease", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const a = await sharedPool(redis.link, clock, { limit: 1 }, { host: "a", keyPrefix });
    const b = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    const admittedAt = clock.now() - 5_000;
    await a.pool.adopt([{ leaseId: "local-1", agentId: "alpha", admittedAt }, { leaseId: "local-2", admittedAt }]);
    await a.pool.adopt([{ leaseId: "local-1", agentId: "alpha", admittedAt }]); // a second time changes nothing
    expect(await b.pool.status()).toMatchObject({ limit: 1, active: 2 });
    expect(a.pool.isHeld("local-1")).toBe(true);
    expect(a.pool.heldLeases()).toEqual([
      { leaseId: "local-1", providerId: "anthropic", agentId: "alpha", admittedAt, enqueuedAt: admittedAt },
      { leaseId: "local-2", providerId: "anthropic", admittedAt, enqueuedAt: admittedAt },
    ]);
    const waiter = track(b.pool.acquire());
    await b.pool.settled();
    expect(await a.pool.release("local-1", "success")).toBe(true);
    await b.pool.settled();
    expect(waiter.settled).toBe(false); // one adopted lease still fills the limit of 1
    expect(await a.pool.release("local-2", "success")).toBe(true);
    await vi.waitFor(() => expect(waiter.result).toMatchObject({ ok: true, lease: { leaseId: "b.1" } }));
    expect(a.pool.isHeld("local-1")).toBe(false);
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("after a restart within 10 s the host adopts what Redis still holds for it once, and new waiters get new ids", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const before = await sharedPool(redis.link, clock, { limit: 2 }, { host: "a", keyPrefix });
    const held = await before.pool.acquire({ agentId: "alpha", ttlMs: 30_000 });
    if (!held.ok) throw new Error("not admitted");
    const { leaseId, admittedAt, expiresAt } = held.lease;
    const after = await sharedPool(redis.link, clock, {}, { host: "a", keyPrefix }); // the same host, restarted
    await after.pool.adopt([{ leaseId, agentId: "alpha", admittedAt, ...(expiresAt === undefined ? {} : { expiresAt }), ttlMs: 30_000 }]);
    expect(await after.pool.status()).toMatchObject({ active: 1 });
    expect(after.pool.heldLeases()).toEqual([held.lease]);
    const next = await after.pool.acquire();
    expect(next).toMatchObject({ ok: true, lease: { leaseId: "a.2" } });
    expect(await after.pool.status()).toMatchObject({ active: 2 });
    clock.advance(20_000);
    expect(await after.pool.heartbeat(leaseId)).toMatchObject({ expiresAt: clock.now() + 30_000 });
    expect(await after.pool.release(leaseId, "success")).toBe(true);
    await after.pool.dispose();
    await before.pool.dispose();
  });

  test("a host starting drops its previous run's waiters and the admissions it never took", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const b = await sharedPool(redis.link, clock, { limit: 1 }, { host: "b", keyPrefix });
    const lease = await admit(b.pool);
    // A previous run of host a queued two waiters behind b's lease, then died.
    for (const waiterId of ["a.1", "a.2"]) {
      const caller = { prefix: `${keyPrefix}:anthropic`, host: "a", now: clock.now(), epoch: b.pool.epoch };
      await redis.link.run(scriptArgs("acquire", caller, { waiterId, deadline: -1, zero: 0, ttl: -1, agentId: "alpha", resume: 0 }));
    }
    await b.pool.release(lease, "success"); // admits a.1 into a's inbox, which nobody reads
    expect(await b.pool.leaseList()).toMatchObject({ held: [{ leaseId: "a.1", host: "a" }], waiting: [{ waiterId: "a.2" }] });
    const a = await sharedPool(redis.link, clock, {}, { host: "a", keyPrefix }); // a starts again within 10 s
    expect(await b.pool.leaseList()).toEqual({ held: [], waiting: [] });
    expect(await admit(b.pool)).toBe("b.2");
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("a TTL lease runs at least its ttl from its adoption; one with no time left expires at once", async () => {
    const clock = createFakeClock();
    const expired: string[] = [];
    const { pool, events } = await sharedPool(redis.link, clock, { limit: 2, cooldownMs: 0 }, { onLeaseExpired: (id) => expired.push(id) });
    const long = clock.now() - 60_000;
    await pool.adopt([
      { leaseId: "moved", admittedAt: long, expiresAt: clock.now() - 1_000, ttlMs: 5_000 },
      { leaseId: "gone", agentId: "beta", admittedAt: long, expiresAt: clock.now() - 1_000, ttlMs: 0 } as never,
    ]);
    expect(pool.heldLeases()).toEqual([
      { leaseId: "moved", providerId: "anthropic", admittedAt: long, enqueuedAt: long, expiresAt: clock.now() + 5_000 },
    ]);
    expect(expired).toEqual(["gone"]);
    expect(events.map((e) => e.kind)).toEqual(["lease_expired"]);
    expect(await pool.status()).toMatchObject({ active: 1 });
    clock.advance(5_000);
    await pool.settled();
    expect(expired).toEqual(["gone", "moved"]);
    expect(await pool.status()).toMatchObject({ active: 0 });
    await pool.dispose();
  });
});

describe("every host's leases and waiters", () => {
  test("held leases and waiters in FIFO order name their host and agent; a waiter's agent stays with its lease", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const a = await sharedPool(redis.link, clock, { limit: 1 }, { host: "a", keyPrefix });
    const b = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    const t0 = clock.now();
    const first = await admit(a.pool, { agentId: "alpha", ttlMs: 10_000 });
    clock.advance(100);
    const beta = b.pool.acquire({ agentId: "beta" });
    await b.pool.settled();
    clock.advance(100);
    track(a.pool.acquire());
    await a.pool.settled();
    expect(await b.pool.leaseList()).toEqual({
      held: [{ leaseId: "a.1", agentId: "alpha", admittedAt: t0, expiresAt: t0 + 10_000, host: "a" }],
      waiting: [
        { waiterId: "b.1", agentId: "beta", position: 1, since: t0 + 100, host: "b" },
        { waiterId: "a.2", position: 2, since: t0 + 200, host: "a" },
      ],
    });
    await a.pool.release(first, "success");
    expect(await beta).toMatchObject({ ok: true });
    expect(await a.pool.leaseList()).toEqual({
      held: [{ leaseId: "b.1", agentId: "beta", admittedAt: t0 + 200, host: "b" }],
      waiting: [{ waiterId: "a.2", position: 1, since: t0 + 200, host: "a" }],
    });
    await a.pool.dispose();
    await b.pool.dispose();
  });
});

describe("a 429 on a held lease and the early pause", () => {
  test("a 429 on a lease pauses and lowers the limit once per window as its release would, and the lease stays held", async () => {
    const clock = createFakeClock();
    const { pool, events } = await sharedPool(redis.link, clock, { limit: 3 });
    const [first, second] = [await admit(pool), await admit(pool)];
    expect(await pool.rateLimitedOn(first)).toBe(true);
    expect(await pool.status()).toMatchObject({ limit: 2, active: 2, autoReduced: true, paused: true, pausedUntil: clock.now() + 1_000 });
    expect(await pool.rateLimitedOn(second, 4_000)).toBe(true);
    expect(await pool.release(first, "rate_limited")).toBe(true);
    expect(await pool.status()).toMatchObject({ limit: 2, active: 1, pausedUntil: clock.now() + 4_000 });
    // The third 429's backoff (4 s) does not outlast the pause the second one's Retry-After set.
    expect(events.map((e) => e.kind)).toEqual(["rate_limited", "paused", "reduced", "rate_limited", "paused", "rate_limited"]);
    expect(await pool.rateLimitedOn(first)).toBe(false);
    expect(pool.isHeld(second)).toBe(true);
    await pool.dispose();
  });

  test("the early pause shows its reason on every host, never shortens, lowers nothing, and a 429 in it opens the window", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const a = await sharedPool(redis.link, clock, { limit: 2 }, { host: "a", keyPrefix });
    const b = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    const lease = await admit(a.pool);
    await admit(a.pool);
    const waiter = track(b.pool.acquire({ timeoutMs: 3_000 }));
    await b.pool.settled();
    const until = clock.now() + 5_000;
    await a.pool.pauseUntil(until, PAUSED_BY_UPSTREAM_HEADERS);
    await a.pool.pauseUntil(clock.now() + 1_000, PAUSED_BY_UPSTREAM_HEADERS);
    await vi.waitFor(() => expect(waiter.result).toEqual({ ok: false, failure: { kind: "timeout" } }));
    expect(await b.pool.status()).toMatchObject({ limit: 2, autoReduced: false, pausedUntil: until, pauseReason: PAUSED_BY_UPSTREAM_HEADERS });
    expect(a.events.map((e) => e.kind)).toEqual(["paused"]);
    await a.pool.rateLimitedOn(lease, 10_000);
    expect(await b.pool.status()).toMatchObject({ limit: 1, autoReduced: true, pausedUntil: clock.now() + 10_000, pauseReason: PAUSED_BY_429 });
    await a.pool.pauseUntil(clock.now() + 20_000, PAUSED_BY_UPSTREAM_HEADERS);
    expect(await b.pool.status()).toMatchObject({ pausedUntil: clock.now() + 20_000, pauseReason: PAUSED_BY_429 });
    await a.pool.dispose();
    await b.pool.dispose();
  });
});

describe("hearing other hosts' changes", () => {
  test("a host hears another host's changes at once and looks again 50 ms later; a burst sends one message", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    let heardByB = 0;
    const a = await sharedPool(redis.link, clock, { limit: 2 }, { host: "a", keyPrefix });
    const b = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix, onChange: () => heardByB++ });
    await b.pool.settled();
    clock.advance(50); // past b's own joining
    heardByB = 0;
    const published: string[] = [];
    // Subscribed after b on the same connection: once this probe has a message, b has it too.
    const stop = await redis.link.subscribe(`${keyPrefix}:anthropic:changed`, (from) => published.push(from));
    const lease = await admit(a.pool);
    await vi.waitFor(() => expect(published).toEqual(["a"]));
    expect(heardByB).toBe(1);
    for (let i = 0; i < 3; i++) await a.pool.release(await admit(a.pool), "success");
    await a.pool.release(lease, "success");
    clock.advance(50); // the second look sees the burst the gap kept quiet
    expect(heardByB).toBe(2);
    expect(await b.pool.status()).toMatchObject({ active: 0 });
    clock.advance(50);
    const before = heardByB; // b's own calls tell it too
    await a.pool.status(); // reading changes nothing
    await a.pool.setLimit(3);
    await vi.waitFor(() => expect(published).toEqual(["a", "a"]));
    expect(heardByB).toBe(before + 1);
    expect(b.pool.lastKnownStatus()).toMatchObject({ limit: 2 }); // the last entry it asked for
    await stop();
    await a.pool.dispose();
    await b.pool.dispose();
  });
});
