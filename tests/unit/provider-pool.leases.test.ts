// TTL leases, restored leases, the usage gate, the watchdog, wait percentiles and the
// callbacks the service relies on (SPEC §1).
import { describe, expect, test, vi } from "vitest";
import type { Clock } from "../../electron/engine/clock";
import { admitNow, deferred, flush, poolHarness, track } from "../support/pool-harness";

describe("TTL leases", () => {
  test("a lease that is not heartbeated expires, frees its slot and is reported", async () => {
    const expired: string[] = [];
    const { pool, clock, events } = poolHarness({ limit: 1, cooldownMs: 350 }, { onLeaseExpired: (id) => expired.push(id) });
    const start = clock.now();
    const result = await pool.acquire({ agentId: "a1", ttlMs: 1_000 });
    expect(result).toMatchObject({ ok: true, lease: { expiresAt: start + 1_000 } });
    const waiter = track(pool.acquire());
    clock.advance(1_000);
    expect(pool.isHeld("L1")).toBe(false);
    expect(expired).toEqual(["L1"]);
    expect(events).toEqual([{ kind: "lease_expired", message: expect.stringMatching(/L1.*anthropic.*a1/) }]);
    expect(pool.status().recycling).toBe(1); // released as a failure, with the usual cooldown
    expect(pool.release("L1", "success")).toBe(false);
    clock.advance(350);
    await flush();
    expect(waiter.result?.ok).toBe(true);
  });

  test("a heartbeat pushes the expiry out by the ttl from now", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const leaseId = await admitNow(pool, { ttlMs: 1_000 });
    clock.advance(800);
    expect(pool.heartbeat(leaseId)?.expiresAt).toBe(clock.now() + 1_000);
    expect(pool.heldLeases()[0]?.expiresAt).toBe(clock.now() + 1_000);
    clock.advance(999);
    expect(pool.isHeld(leaseId)).toBe(true);
    clock.advance(1);
    expect(pool.isHeld(leaseId)).toBe(false);
    expect(pool.heartbeat(leaseId)).toBeUndefined();
  });

  test("a lease without a ttl never expires", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const leaseId = await admitNow(pool);
    clock.advance(24 * 3_600_000);
    expect(pool.isHeld(leaseId)).toBe(true);
    expect(pool.heartbeat(leaseId)).not.toHaveProperty("expiresAt");
  });

  test("a restored lease holds its slot at once and expires no sooner than its ttl after the restart", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const now = clock.now();
    pool.restoreLease({ leaseId: "old", agentId: "a1", admittedAt: now - 60_000, expiresAt: now + 60_000 }, 120_000);
    expect(pool.heldLeases()).toEqual([
      // Its own ttl is kept beside it, so the next restart renews heartbeats by the same span.
      { leaseId: "old", agentId: "a1", admittedAt: now - 60_000, expiresAt: now + 120_000, ttlMs: 120_000 },
    ]);
    expect(await pool.acquire({ timeoutMs: 0 })).toEqual({ ok: false, failure: { kind: "timeout" } });
    clock.advance(119_999);
    expect(pool.isHeld("old")).toBe(true);
    clock.advance(1);
    expect(pool.isHeld("old")).toBe(false);
  });

  test("a 429 on a lease restored after an auto-reduction pauses without reducing again", () => {
    const reduced = poolHarness({ limit: 3, autoReduced: true, autoReducedFrom: 4 });
    const fresh = poolHarness({ limit: 3 });
    for (const { pool, clock } of [reduced, fresh]) {
      pool.restoreLease({ leaseId: "old", admittedAt: clock.now() - 1_000, expiresAt: clock.now() + 60_000 });
      pool.release("old", "rate_limited");
    }
    expect(reduced.pool.status()).toMatchObject({ limit: 3, paused: true, autoReducedFrom: 4 });
    expect(fresh.pool.status()).toMatchObject({ limit: 2, paused: true, autoReducedFrom: 3 });
  });

  test("a restored lease whose expiry passed while the host was down gets its ttl again from the restart", () => {
    const { pool, clock, events } = poolHarness({ limit: 1, cooldownMs: 350 });
    const now = clock.now();
    pool.restoreLease({ leaseId: "stale", admittedAt: now - 200_000, expiresAt: now - 80_000 }, 120_000);
    expect(pool.isHeld("stale")).toBe(true); // its agent could not heartbeat a host that was down
    expect(events).toEqual([]);
    clock.advance(120_000);
    expect(pool.isHeld("stale")).toBe(false);
    expect(events.map((e) => e.kind)).toEqual(["lease_expired"]);
  });
});

describe("usage gate", () => {
  test("an admission with nobody queued does not ask the usage gate", async () => {
    const probe = vi.fn(async () => 99);
    const { pool } = poolHarness({ limit: 2 }, { usageProbe: { probe, pollMs: 1_000 } });
    await admitNow(pool);
    expect(probe).not.toHaveBeenCalled();
  });

  test("a queued waiter goes in only once the provider reports room, polling at the interval", async () => {
    let sessions = 2;
    const probe = vi.fn(async () => sessions);
    const { pool, clock } = poolHarness({ limit: 2 }, { usageProbe: { probe, pollMs: 5_000 } });
    const held = await admitNow(pool);
    await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(held, "success");
    await flush();
    expect(probe).toHaveBeenCalledTimes(1);
    expect(waiter.settled).toBe(false);
    expect(pool.status().usageGate).toEqual({ ok: true, concurrentSessions: 2, checkedAt: clock.now() });
    sessions = 1;
    clock.advance(4_999);
    await flush();
    expect(probe).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await flush();
    expect(probe).toHaveBeenCalledTimes(2);
    expect(waiter.result?.ok).toBe(true);
    expect(pool.usageReading()).toEqual({ ok: true, concurrentSessions: 1, checkedAt: clock.now() });
  });

  test("a usage gate that fails does not block admission and its error is shown", async () => {
    const probe = async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:9");
    };
    const { pool, clock } = poolHarness({ limit: 1 }, { usageProbe: { probe, pollMs: 5_000 } });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(held, "success");
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.status().usageGate).toEqual({
      ok: false,
      error: "connect ECONNREFUSED 127.0.0.1:9",
      checkedAt: clock.now(),
    });
  });

  test("a usage gate slower than 2 s is aborted and does not block admission", async () => {
    let seen: AbortSignal | undefined;
    const probe = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<number>(() => {});
    };
    const { pool, clock } = poolHarness({ limit: 1 }, { usageProbe: { probe, pollMs: 5_000 } });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(held, "success");
    clock.advance(1_999);
    await flush();
    expect(waiter.settled).toBe(false);
    expect(seen?.aborted).toBe(false);
    clock.advance(1);
    await flush();
    expect(seen?.aborted).toBe(true);
    expect(waiter.result?.ok).toBe(true);
    expect(pool.usageReading()).toMatchObject({ ok: false, error: expect.stringContaining("2 s") });
  });

  test("only one usage poll runs at a time, and the queue waits behind it", async () => {
    const answers = [deferred<number>(), deferred<number>()];
    let polls = 0;
    const probe = vi.fn(() => answers[polls++]!.promise);
    const { pool } = poolHarness({ limit: 3 }, { usageProbe: { probe, pollMs: 5_000 } });
    const leases = [await admitNow(pool), await admitNow(pool), await admitNow(pool)];
    const waiters = [track(pool.acquire()), track(pool.acquire()), track(pool.acquire())];
    for (const lease of leases) pool.release(lease, "success");
    await flush();
    expect(probe).toHaveBeenCalledTimes(1);
    expect(waiters.some((w) => w.settled)).toBe(false);
    answers[0]!.resolve(1); // room for 2 more upstream: two waiters go in, the third asks again
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, false]);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});

describe("watchdog", () => {
  /** A clock that loses the 429 pause timer, as a suspended laptop might. */
  const losingPauseTimer = (clock: Clock): Clock => ({
    now: () => clock.now(),
    setTimeout: (fn, ms) => (ms === 1_000 ? clock.setTimeout(() => {}, ms) : clock.setTimeout(fn, ms)),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  });

  test("a queue stuck with free slots is logged and driven again after 30 s", async () => {
    const { pool, clock, logs } = poolHarness({ limit: 1 }, { clock: losingPauseTimer });
    pool.release(await admitNow(pool), "rate_limited"); // 1 s pause whose end is never signalled
    const waiter = track(pool.acquire());
    clock.advance(29_999);
    await flush();
    expect(waiter.settled).toBe(false);
    expect(logs).toEqual([]);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.message).toContain("anthropic");
    expect(logs[0]!.state).toMatchObject({ queued: 1, active: 0, recycling: 0, limit: 1 });
  });

  test("the watchdog stays quiet while a lease is legitimately held", async () => {
    const { pool, clock, logs } = poolHarness({ limit: 1 });
    await admitNow(pool);
    const waiter = track(pool.acquire());
    clock.advance(5 * 60_000);
    await flush();
    expect(waiter.settled).toBe(false);
    expect(logs).toEqual([]);
  });

  test("the watchdog stays quiet while a long pause holds the queue, even at the instant it ends", async () => {
    const { pool, clock, logs } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const waiter = track(pool.acquire()); // queued at t = 0; the watchdog looks at t = 30 s
    clock.advance(29_000);
    pool.release(held, "rate_limited", 1_000); // the pause ends exactly on the watchdog's tick
    clock.advance(1_000);
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(logs).toEqual([]);
  });

  test("an idle pool keeps no watchdog timer", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    expect(clock.pending()).toBe(0);
    const waiter = track(pool.acquire());
    expect(clock.pending()).toBe(1);
    pool.release(held, "success");
    await flush();
    expect(waiter.settled).toBe(true);
    expect(clock.pending()).toBe(0);
  });
});

describe("wait percentiles", () => {
  test("p50 and p95 cover the admissions of the last 5 minutes, immediate ones as 0 ms", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    expect(pool.status()).not.toHaveProperty("waitP50Ms");
    let held = await admitNow(pool); // waited 0 ms
    for (const wait of [100, 200, 300]) {
      const waiter = track(pool.acquire());
      clock.advance(wait);
      pool.release(held, "success");
      await flush();
      held = waiter.leaseId;
    }
    expect(pool.status()).toMatchObject({ waitP50Ms: 100, waitP95Ms: 300 });
    clock.advance(5 * 60_000);
    const status = pool.status();
    expect(status).not.toHaveProperty("waitP50Ms");
    expect(status).not.toHaveProperty("waitP95Ms");
  });
});

describe("callbacks", () => {
  test("every visible change is announced, and lease changes separately", async () => {
    const { pool, calls } = poolHarness({ limit: 1 });
    const held = await admitNow(pool, { ttlMs: 10_000 });
    expect(calls).toEqual({ change: 1, leases: 1 });
    const waiter = track(pool.acquire());
    expect(calls).toEqual({ change: 2, leases: 1 });
    pool.heartbeat(held);
    expect(calls).toEqual({ change: 3, leases: 2 });
    pool.release(held, "success");
    await flush();
    expect(waiter.settled).toBe(true);
    expect(calls).toEqual({ change: 4, leases: 3 });
    pool.setCooldown(500);
    pool.dismissNotice();
    expect(calls).toEqual({ change: 6, leases: 3 });
  });
});
