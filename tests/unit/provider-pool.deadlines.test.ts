// Waiters' deadlines share one timer (SPEC §1, "FIFO queue": a waiter that times out leaves
// the queue and is never admitted). These walk the cases one timer makes delicate: deadlines
// out of arrival order, the earliest waiter leaving early, and no timer left behind.
import { describe, expect, test } from "vitest";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const TIMEOUT = { ok: false, failure: { kind: "timeout" } };

describe("deadlines behind one timer", () => {
  test("many waiters with a timeout hold one deadline timer beside the watchdog", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    await admitNow(pool);
    for (let i = 0; i < 100; i++) void pool.acquire({ timeoutMs: 1_000 + i });
    expect(clock.pending()).toBe(2);
  });

  test("each waiter times out at its own deadline, whatever order the deadlines arrived in", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    await admitNow(pool);
    const timeouts = [500, 300, 300, 100, 400, 200, 600];
    const waiters = timeouts.map((timeoutMs) => track(pool.acquire({ timeoutMs })));
    for (let t = 100; t <= 600; t += 100) {
      clock.advance(99);
      await flush();
      expect(waiters.filter((w) => w.settled)).toHaveLength(timeouts.filter((ms) => ms < t).length);
      clock.advance(1);
      await flush();
      expect(waiters.filter((w) => w.settled)).toHaveLength(timeouts.filter((ms) => ms <= t).length);
    }
    for (const waiter of waiters) expect(waiter.result).toEqual(TIMEOUT);
    expect(pool.status().queued).toBe(0);
  });

  test("the earliest waiter admitted early does not time out the next one before its deadline", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const first = track(pool.acquire({ timeoutMs: 1_000 }));
    clock.advance(500);
    const second = track(pool.acquire({ timeoutMs: 1_000 })); // due at 1500
    pool.release(held, "success");
    await flush();
    expect(first.result?.ok).toBe(true);
    clock.advance(999); // at 1499: past the first deadline, short of the second
    await flush();
    expect(second.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(second.result).toEqual(TIMEOUT);
  });

  test("a waiter whose deadline arrives out of order still times out after the earliest leaves", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    await admitNow(pool);
    const controller = new AbortController();
    const late = track(pool.acquire({ timeoutMs: 5_000 }));
    const early = track(pool.acquire({ timeoutMs: 1_000, signal: controller.signal }));
    const middle = track(pool.acquire({ timeoutMs: 3_000 }));
    controller.abort();
    await flush();
    expect(early.result).toEqual({ ok: false, failure: { kind: "aborted" } });
    clock.advance(2_999);
    await flush();
    expect([late.settled, middle.settled]).toEqual([false, false]);
    clock.advance(1);
    await flush();
    expect([late.settled, middle.result]).toEqual([false, TIMEOUT]);
    clock.advance(2_000);
    await flush();
    expect(late.result).toEqual(TIMEOUT);
  });

  test("the deadline timer is gone once no waiter with a deadline is left", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const waiters = [track(pool.acquire({ timeoutMs: 1_000 })), track(pool.acquire({ timeoutMs: 2_000 }))];
    expect(clock.pending()).toBe(2); // watchdog + one deadline timer
    pool.release(held, "success");
    await flush();
    expect(waiters[0]!.result?.ok).toBe(true);
    pool.release(waiters[0]!.leaseId, "success");
    await flush();
    expect(waiters[1]!.result?.ok).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  test("random deadlines and aborts: every waiter is answered once, never admitted after its deadline", async () => {
    const { pool, clock } = poolHarness({ limit: 2 });
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const waiters: { tracked: ReturnType<typeof track>; due: number; controller: AbortController }[] = [];
    const held: string[] = [await admitNow(pool), await admitNow(pool)];
    const admitted = new Set<string>();
    for (let step = 0; step < 2_000; step++) {
      const roll = random(10);
      if (roll < 5) {
        const controller = new AbortController();
        const timeoutMs = 1 + random(3_000);
        waiters.push({
          tracked: track(pool.acquire({ timeoutMs, signal: controller.signal })),
          due: clock.now() + timeoutMs,
          controller,
        });
      } else if (roll < 6 && waiters.length > 0) {
        waiters[random(waiters.length)]!.controller.abort();
      } else if (roll < 8 && held.length > 0) {
        pool.release(held.splice(random(held.length), 1)[0]!, "success");
      } else {
        clock.advance(random(200));
      }
      await flush();
      for (const w of waiters) {
        const result = w.tracked.result;
        if (result?.ok && !admitted.has(result.lease.leaseId)) {
          expect(result.lease.admittedAt).toBeLessThanOrEqual(w.due);
          admitted.add(result.lease.leaseId);
          held.push(result.lease.leaseId);
        }
        if (!w.tracked.settled) expect(clock.now()).toBeLessThan(w.due);
      }
    }
    clock.advance(3_000);
    await flush();
    expect(waiters.every((w) => w.tracked.settled)).toBe(true);
    expect(pool.status().queued).toBe(0);
  });
});
