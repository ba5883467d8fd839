// The 429 pause, adaptive headroom, the manual limit, resume and the banner (SPEC §1).
import { describe, expect, test } from "vitest";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const notice = (from: number, to: number) =>
  `Limit for anthropic lowered from ${from} to ${to} after a rate limit (429). Restore it when the provider allows more.`;

describe("429 pause", () => {
  test("a 429 with Retry-After pauses admissions until then, and waiters go in when it ends", async () => {
    const { pool, clock, events } = poolHarness({ limit: 3 });
    const start = clock.now();
    pool.release(await admitNow(pool), "rate_limited", 5_000);
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: start + 5_000 });
    const waiter = track(pool.acquire());
    clock.advance(4_999);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.status()).not.toHaveProperty("pausedUntil");
    expect(events.map((e) => e.kind)).toEqual(["rate_limited", "paused", "reduced"]);
    for (const event of events) expect(event.message).toContain("anthropic");
  });

  test("a Retry-After longer than 5 minutes pauses for 5 minutes", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const start = clock.now();
    pool.release(await admitNow(pool), "rate_limited", 3_600_000);
    expect(pool.status().pausedUntil).toBe(start + 300_000);
  });

  test("without Retry-After the pause backs off 1 s, 2 s, 4 s... up to 30 s", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const pauses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const at = clock.now();
      pool.release(await admitNow(pool), "rate_limited");
      const until = pool.status().pausedUntil!;
      pauses.push(until - at);
      clock.advance(until - at);
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  test("a success between 429s starts the backoff again at 1 s", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited");
    clock.advance(1_000);
    pool.release(await admitNow(pool), "rate_limited");
    clock.advance(2_000);
    pool.release(await admitNow(pool), "success");
    const at = clock.now();
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status().pausedUntil).toBe(at + 1_000);
  });

  test("a failure between 429s does not restart the backoff: only a success does", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited");
    clock.advance(1_000);
    pool.release(await admitNow(pool), "failure");
    const at = clock.now();
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status().pausedUntil).toBe(at + 2_000);
  });

  test("a later 429 extends the pause but never shortens it", async () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const leases = [await admitNow(pool), await admitNow(pool), await admitNow(pool)];
    const start = clock.now();
    pool.release(leases[0]!, "rate_limited", 10_000);
    pool.release(leases[1]!, "rate_limited", 2_000);
    expect(pool.status().pausedUntil).toBe(start + 10_000);
    pool.release(leases[2]!, "rate_limited", 20_000);
    expect(pool.status().pausedUntil).toBe(start + 20_000);
    clock.advance(10_000);
    expect(pool.status().paused).toBe(true);
  });

  test("resuming by hand lifts the pause and admits waiters at once", async () => {
    const { pool, events } = poolHarness({ limit: 2 });
    pool.release(await admitNow(pool), "rate_limited", 60_000);
    const waiter = track(pool.acquire());
    pool.resume();
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.status()).toMatchObject({ paused: false });
    expect(events.at(-1)).toEqual({ kind: "resumed", message: expect.stringContaining("anthropic") });
  });

  test("a waiter whose deadline falls before the pause ends is answered with a timeout at once", async () => {
    const { pool } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited", 10_000);
    const tooShort = track(pool.acquire({ timeoutMs: 9_999 }));
    const longEnough = track(pool.acquire({ timeoutMs: 10_000 }));
    await flush();
    expect(tooShort.result).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(longEnough.settled).toBe(false);
  });

  test("queued waiters who cannot outwait a pause that just started are answered at once", async () => {
    const { pool } = poolHarness({ limit: 1 });
    const held = await admitNow(pool);
    const short = track(pool.acquire({ timeoutMs: 5_000 }));
    const long = track(pool.acquire({ timeoutMs: 60_000 }));
    const forever = track(pool.acquire());
    pool.release(held, "rate_limited", 10_000);
    await flush();
    expect(short.result).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(long.settled).toBe(false);
    expect(forever.settled).toBe(false);
    expect(pool.leases().waiting.map((w) => w.position)).toEqual([1, 2]);
  });
});

describe("adaptive headroom", () => {
  test("a 429 lowers the limit by one and shows a notice naming both limits", async () => {
    const { pool, configs, events } = poolHarness({ limit: 4 });
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status()).toMatchObject({
      limit: 3,
      autoReduced: true,
      autoReducedFrom: 4,
      notice: notice(4, 3),
      noticeDismissed: false,
    });
    expect(configs.at(-1)).toEqual({
      limit: 3,
      cooldownMs: 0,
      autoReduced: true,
      autoReducedFrom: 4,
      noticeDismissed: false,
    });
    expect(events.find((e) => e.kind === "reduced")?.message).toBe(notice(4, 3));
  });

  test("a burst of 429s inside one pause lowers the limit once", async () => {
    const { pool } = poolHarness({ limit: 4 });
    const leases = [await admitNow(pool), await admitNow(pool), await admitNow(pool)];
    for (const lease of leases) pool.release(lease, "rate_limited");
    expect(pool.status().limit).toBe(3);
  });

  test("a second reduction keeps the original limit and the notice counts from it", async () => {
    const { pool, clock, configs } = poolHarness({ limit: 4 });
    pool.release(await admitNow(pool), "rate_limited");
    clock.advance(1_000);
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status()).toMatchObject({ limit: 2, autoReducedFrom: 4, notice: notice(4, 2) });
    expect(configs.at(-1)).toMatchObject({ limit: 2, autoReducedFrom: 4 });
  });

  test("a late 429 from a lease admitted before the reduction does not lower the limit again", async () => {
    const { pool, clock } = poolHarness({ limit: 4 });
    const early = await admitNow(pool);
    const late = await admitNow(pool);
    pool.release(early, "rate_limited");
    clock.advance(1_000); // the pause is over
    pool.release(late, "rate_limited");
    expect(pool.status()).toMatchObject({ limit: 3, paused: true });
  });

  test("a 429 that arrives while the provider is already paused does not lower the limit", async () => {
    const { pool, clock } = poolHarness({ limit: 4 });
    const old = await admitNow(pool);
    pool.release(await admitNow(pool), "rate_limited"); // 4 -> 3, paused 1 s
    clock.advance(1_000);
    const fresh = await admitNow(pool); // admitted after the reduction
    pool.release(old, "rate_limited"); // pauses again, without reducing (an older lease)
    pool.release(fresh, "rate_limited"); // inside that pause: no further reduction
    expect(pool.status()).toMatchObject({ limit: 3, paused: true });
  });

  test("at limit 1 a 429 pauses but does not reduce or write a notice", async () => {
    const { pool, configs, events } = poolHarness({ limit: 1 });
    pool.release(await admitNow(pool), "rate_limited");
    const status = pool.status();
    expect(status).toMatchObject({ limit: 1, paused: true, autoReduced: false });
    expect(status).not.toHaveProperty("notice");
    expect(status).not.toHaveProperty("autoReducedFrom");
    expect(configs).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(["rate_limited", "paused"]);
  });

  test("leases already held are never revoked when the limit drops", async () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const leases = [await admitNow(pool), await admitNow(pool), await admitNow(pool)];
    pool.release(leases[0]!, "rate_limited");
    expect(pool.isHeld(leases[1]!) && pool.isHeld(leases[2]!)).toBe(true);
    clock.advance(1_000);
    const newcomer = track(pool.acquire());
    await flush();
    expect(newcomer.settled).toBe(false); // 2 held, limit now 2
    pool.release(leases[1]!, "success");
    await flush();
    expect(newcomer.result?.ok).toBe(true);
  });

  test("dismissing the notice hides it, is persisted, and a new reduction shows it again", async () => {
    const { pool, clock, configs } = poolHarness({ limit: 4 });
    pool.release(await admitNow(pool), "rate_limited");
    pool.dismissNotice();
    expect(configs.at(-1)).toMatchObject({ noticeDismissed: true, autoReduced: true });
    expect(pool.status()).toMatchObject({ noticeDismissed: true, autoReduced: true, notice: notice(4, 3) });
    clock.advance(1_000);
    pool.release(await admitNow(pool), "rate_limited");
    expect(pool.status()).toMatchObject({ noticeDismissed: false, limit: 2 });
  });

  test("an auto-reduced limit survives a restart with its banner", () => {
    const { pool } = poolHarness({ limit: 3, autoReduced: true, autoReducedFrom: 5, noticeDismissed: true });
    expect(pool.status()).toMatchObject({ autoReducedFrom: 5, notice: notice(5, 3), noticeDismissed: true });
  });
});

describe("manual limit", () => {
  test("setting the limit by hand clears the auto-reduction, its notice and the dismissal", async () => {
    const { pool, configs } = poolHarness({ limit: 4 });
    pool.release(await admitNow(pool), "rate_limited");
    pool.dismissNotice();
    pool.setLimit(4);
    const status = pool.status();
    expect(status).toMatchObject({ limit: 4, autoReduced: false, noticeDismissed: false });
    expect(status).not.toHaveProperty("notice");
    expect(status).not.toHaveProperty("autoReducedFrom");
    expect(configs.at(-1)).toStrictEqual({ limit: 4, cooldownMs: 0, autoReduced: false, noticeDismissed: false });
  });

  test("raising the limit admits waiters at once", async () => {
    const { pool } = poolHarness({ limit: 1 });
    await admitNow(pool);
    const waiters = [track(pool.acquire()), track(pool.acquire()), track(pool.acquire())];
    pool.setLimit(3);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, false]);
  });
});
