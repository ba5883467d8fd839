// SPEC §1/§2: a lease released as `abandoned` (the client went away) is neutral for the
// provider's backoff, recycles its slot as usual, and is never credited as a success.
import { describe, expect, test } from "vitest";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

describe("abandoned release", () => {
  test("between 429s it does not restart the backoff as a success would", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited");
    clock.advance(1_000);
    expect(pool.release(await admitNow(pool), "abandoned")).toBe(true);
    const at = clock.now();
    pool.release(await admitNow(pool), "rate_limited");
    // A success here would have started again at 1 s.
    expect(pool.status().pausedUntil).toBe(at + 2_000);
  });

  test("its slot recycles for the cooldown before the next waiter goes in", async () => {
    const { pool, clock } = poolHarness({ limit: 1, cooldownMs: 350 });
    const leaseId = await admitNow(pool);
    const waiter = track(pool.acquire());
    pool.release(leaseId, "abandoned");
    expect(pool.status()).toMatchObject({ active: 0, recycling: 1, paused: false, queued: 1 });
    clock.advance(349);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
  });

  test("it pauses nothing and lowers no limit", async () => {
    const { pool, events } = poolHarness({ limit: 3 });
    pool.release(await admitNow(pool), "abandoned");
    expect(pool.status()).toMatchObject({ limit: 3, paused: false, autoReduced: false });
    expect(events).toEqual([]);
  });
});
