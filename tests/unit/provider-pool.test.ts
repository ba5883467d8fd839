// Slots, the FIFO queue, giving up, cooldowns and the status a user reads (SPEC §1).
import { describe, expect, test } from "vitest";
import { admitNow, deferred, flush, poolHarness, track } from "../support/pool-harness";

describe("slots and status", () => {
  test("admits up to the limit at once and queues the rest", async () => {
    const { pool } = poolHarness({ limit: 2 });
    await admitNow(pool, { agentId: "a1" });
    await admitNow(pool, { agentId: "a2" });
    const third = track(pool.acquire({ agentId: "a3", waiterId: "w3" }));
    await flush();
    expect(third.settled).toBe(false);
    expect(pool.status()).toMatchObject({ limit: 2, active: 2, queued: 1, recycling: 0, paused: false });
    expect(pool.leases().waiting).toEqual([
      { waiterId: "w3", agentId: "a3", position: 1, since: expect.any(Number) },
    ]);
  });

  test("an immediate admission is answered without any time passing", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const result = await pool.acquire({ agentId: "a1" });
    expect(result).toEqual({
      ok: true,
      lease: { leaseId: "L1", providerId: "anthropic", agentId: "a1", admittedAt: clock.now(), enqueuedAt: clock.now() },
    });
    expect(clock.pending()).toBe(0);
  });

  test("status leaves out every optional field that does not apply", () => {
    const { pool } = poolHarness({ limit: 3, cooldownMs: 350 });
    expect(pool.status()).toStrictEqual({
      providerId: "anthropic",
      limit: 3,
      active: 0,
      queued: 0,
      paused: false,
      cooldownMs: 350,
      autoReduced: false,
      noticeDismissed: false,
      recycling: 0,
    });
  });

  test("a limit or cooldown out of range is refused with the field, the range and the value", () => {
    const { pool } = poolHarness();
    expect(() => pool.setLimit(1.5)).toThrow("limit must be an integer from 1 to 10000 (got 1.5)");
    expect(() => pool.setCooldown(-1)).toThrow("cooldownMs must be an integer from 0 to 600000 (got -1)");
  });
});

describe("the FIFO queue", () => {
  test("waiters are admitted in arrival order as slots free up", async () => {
    const { pool } = poolHarness({ limit: 1 });
    const first = await admitNow(pool);
    const waiters = ["a", "b", "c"].map((agentId) => track(pool.acquire({ agentId })));
    await flush();
    const order: string[] = [];
    let leaseId = first;
    for (let i = 0; i < 3; i++) {
      pool.release(leaseId, "success");
      await flush();
      const next = waiters.find((w) => w.settled && !order.includes(w.leaseId));
      expect(next).toBeDefined();
      order.push(next!.leaseId);
      leaseId = next!.leaseId;
      expect(next!.result).toMatchObject({ ok: true, lease: { agentId: ["a", "b", "c"][i] } });
    }
  });

  test("a newcomer never overtakes a queued waiter, even when a slot is free at that moment", async () => {
    const poll = deferred<number>();
    const probe = async () => poll.promise;
    const { pool } = poolHarness({ limit: 2 }, { usageProbe: { probe, pollMs: 1_000 } });
    const a = await admitNow(pool);
    await admitNow(pool);
    const queued = track(pool.acquire({ agentId: "queued" }));
    pool.release(a, "success"); // a slot is free, but the queued waiter is waiting on the usage gate
    expect(pool.status()).toMatchObject({ active: 1, queued: 1 });
    const impatient = track(pool.acquire({ agentId: "impatient", timeoutMs: 0 }));
    const patient = track(pool.acquire({ agentId: "patient" }));
    await flush();
    expect(impatient.result).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(patient.settled).toBe(false);
    poll.resolve(0);
    await flush();
    expect(queued.result).toMatchObject({ ok: true, lease: { agentId: "queued" } });
    expect(patient.settled).toBe(false);
  });
});

describe("giving up", () => {
  test("a waiter that times out is told so and never takes a slot afterwards", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire({ timeoutMs: 1_000 }));
    clock.advance(999);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result).toEqual({ ok: false, failure: { kind: "timeout" } });
    pool.release(held, "success");
    expect(pool.status()).toMatchObject({ active: 0, queued: 0 });
  });

  test("aborting a queued acquire answers aborted and hands its place to the next in line", async () => {
    const { pool } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const controller = new AbortController();
    const leaving = track(pool.acquire({ agentId: "leaving", signal: controller.signal }));
    const staying = track(pool.acquire({ agentId: "staying" }));
    controller.abort();
    await flush();
    expect(leaving.result).toEqual({ ok: false, failure: { kind: "aborted" } });
    expect(pool.status().queued).toBe(1);
    pool.release(held, "success");
    await flush();
    expect(staying.result).toMatchObject({ ok: true, lease: { agentId: "staying" } });
  });

  test("a signal that is already aborted is refused at once", async () => {
    const { pool } = poolHarness();
    const result = await pool.acquire({ signal: AbortSignal.abort() });
    expect(result).toEqual({ ok: false, failure: { kind: "aborted" } });
    expect(pool.status().active).toBe(0);
  });

  test("timeout 0 is admitted when a slot is free now and refused at once when none is", async () => {
    const { pool } = poolHarness({ limit: 1 });
    expect((await pool.acquire({ timeoutMs: 0 })).ok).toBe(true);
    expect(await pool.acquire({ timeoutMs: 0 })).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(pool.status().queued).toBe(0);
  });

  test("removing the provider answers every waiter with removed and leaves no timer behind", async () => {
    const { pool, clock } = poolHarness({ limit: 1, cooldownMs: 350 });
    const held = await admitNow(pool, { ttlMs: 60_000 });
    const waiters = [track(pool.acquire({ timeoutMs: 5_000 })), track(pool.acquire())];
    pool.release(held, "rate_limited");
    pool.dispose();
    await flush();
    for (const waiter of waiters) expect(waiter.result).toEqual({ ok: false, failure: { kind: "removed" } });
    expect(clock.pending()).toBe(0);
    expect(await pool.acquire()).toEqual({ ok: false, failure: { kind: "removed" } });
  });
});

describe("release cooldown", () => {
  test("a released slot recycles for the cooldown before the next waiter gets it", async () => {
    const { pool, clock } = poolHarness({ limit: 1, cooldownMs: 350 });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(held, "success");
    expect(pool.status()).toMatchObject({ active: 0, recycling: 1, queued: 1 });
    clock.advance(349);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.status()).toMatchObject({ active: 1, recycling: 0, queued: 0 });
  });

  test("a changed cooldown applies to slots released after the change", async () => {
    const { pool, clock } = poolHarness({ limit: 2, cooldownMs: 1_000 });
    const a = await admitNow(pool);
    const b = await admitNow(pool);
    const waiters = [track(pool.acquire()), track(pool.acquire())];
    pool.release(a, "success"); // recycles for 1000 ms
    pool.setCooldown(100);
    pool.release(b, "success"); // recycles for 100 ms
    clock.advance(100);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, false]);
    clock.advance(899);
    await flush();
    expect(waiters[1]!.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiters[1]!.settled).toBe(true);
  });

  test("cooldown 0 hands the slot to the next waiter at once, without a timer", async () => {
    const { pool, clock } = poolHarness({ limit: 1, cooldownMs: 0 });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(held, "failure");
    expect(pool.status()).toMatchObject({ active: 1, recycling: 0, queued: 0 });
    expect(clock.pending()).toBe(0);
    await flush();
    expect(waiter.result?.ok).toBe(true);
  });

  test("an admission that could not be delivered returns its slot at once, without cooldown", async () => {
    const { pool } = poolHarness({ limit: 1, cooldownMs: 350 });
    const undelivered = await admitNow(pool);
    const waiter = track(pool.acquire());
    expect(pool.returnUndelivered(undelivered)).toBe(true);
    expect(pool.status()).toMatchObject({ recycling: 0, active: 1 });
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.returnUndelivered(undelivered)).toBe(false);
  });

  test("an undelivered admission is not a success: the 429 backoff keeps doubling across it", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited");
    pool.resume();
    pool.returnUndelivered(await admitNow(pool));
    const start = clock.now();
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status().pausedUntil).toBe(start + 2_000);
  });
});

describe("releasing", () => {
  test("a lease is released at most once", async () => {
    const { pool } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    expect(pool.release(held, "success")).toBe(true);
    expect(pool.release(held, "success")).toBe(false);
    expect(pool.release(held, "rate_limited")).toBe(false);
    expect(pool.release("never-issued", "failure")).toBe(false);
    expect(pool.status()).toMatchObject({ active: 0, recycling: 0, paused: false });
  });
});
