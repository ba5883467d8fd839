// Plan windows in the pool (SPEC §8): the pause until a used-up window's reset, the probe at
// the reset, the hold near the end of a window, warnings, and no cascade with the 429 rules.
import { describe, expect, test } from "vitest";
import type { WindowReading } from "../../electron/engine/window-readings";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const HOUR = 3_600_000;
const fiveHour = (usedPercent: number, resetsAt: number, seenAt: number): WindowReading => ({
  windows: [{ name: "5h", usedPercent, resetsAt, seenAt, scoped: false, binding: true }],
  ...(usedPercent >= 100 ? { usedUp: { name: "5h", resetsAt } } : {}),
});
const hhmm = (at: number) => {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

describe("a used-up window", () => {
  test("pauses until its reset two hours out, names the window and the local reset time, lowers nothing", async () => {
    const { pool, clock, events } = poolHarness({ limit: 3 });
    const resetsAt = clock.now() + 2 * HOUR;
    pool.windows.note(fiveHour(100, resetsAt, clock.now()));
    expect(pool.status()).toMatchObject({
      paused: true,
      pausedUntil: resetsAt,
      pauseReason: `5-hour window used up; resets ${hhmm(resetsAt)}`,
      limit: 3,
      autoReduced: false,
    });
    expect(events.map((e) => e.kind)).toEqual(["window_exhausted"]);
    const waiter = track(pool.acquire());
    clock.advance(2 * HOUR - 1);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
  });

  test("a reset more than 8 days out pauses for 8 days; one already passed pauses 60 s", () => {
    const { pool, clock } = poolHarness();
    const start = clock.now();
    pool.windows.note(fiveHour(100, start + 30 * 24 * HOUR, start));
    expect(pool.status().pausedUntil).toBe(start + 8 * 24 * HOUR);
    pool.resume();
    pool.windows.note({ windows: [], usedUp: { name: "primary" } });
    expect(pool.status().pausedUntil).toBe(start + 60_000);
  });

  test("429s while it holds neither lower the limit nor add a backoff", async () => {
    const { pool, clock, events } = poolHarness({ limit: 3 });
    const a = await admitNow(pool);
    const b = await admitNow(pool);
    const resetsAt = clock.now() + HOUR;
    pool.windows.note(fiveHour(100, resetsAt, clock.now()));
    pool.release(a, "rate_limited", 7_999_000);
    pool.release(b, "rate_limited");
    expect(pool.status()).toMatchObject({ limit: 3, autoReduced: false, pausedUntil: resetsAt });
    expect(events.filter((e) => e.kind === "reduced" || e.kind === "paused")).toEqual([]);
  });

  test("a waiter whose deadline falls before the reset times out at once; one without waits", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.windows.note(fiveHour(100, clock.now() + HOUR, clock.now()));
    const short = track(pool.acquire({ timeoutMs: 10 * 60_000 }));
    const patient = track(pool.acquire());
    await flush();
    expect(short.result).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(patient.settled).toBe(false);
    const queuedFirst = track(pool.acquire({ timeoutMs: 2 * HOUR }));
    pool.windows.note(fiveHour(100, clock.now() + 3 * HOUR, clock.now()));
    await flush();
    expect(queuedFirst.result).toEqual({ ok: false, failure: { kind: "timeout" } });
  });

  test("the proxy's refusal says when, and Resume now lifts the pause by hand", async () => {
    const { pool, clock, events } = poolHarness();
    pool.windows.note(fiveHour(100, clock.now() + 90_500, clock.now()));
    expect(pool.windows.refusal(clock.now())).toMatchObject({ retryAfterS: 91 });
    expect(pool.windows.refusal(clock.now())?.message).toContain("5-hour window is used up");
    pool.resume();
    expect(pool.status().paused).toBe(false);
    expect(pool.windows.refusal(clock.now())).toBeUndefined();
    expect(events.at(-1)?.kind).toBe("resumed");
    await admitNow(pool);
  });

  test("a model-scoped window at 100 % pauses and holds nothing", async () => {
    const { pool, clock } = poolHarness();
    pool.windows.setHoldNewAtPercent(50);
    pool.windows.note({ windows: [{ name: "7d_opus", usedPercent: 100, resetsAt: clock.now() + HOUR, seenAt: clock.now(), scoped: true }] });
    expect(pool.status()).toMatchObject({ paused: false, windows: [{ name: "7d_opus", usedPercent: 100 }] });
    await admitNow(pool);
  });
});

describe("the probe at the reset", () => {
  async function atReset(limit = 3) {
    const harness = poolHarness({ limit });
    const { pool, clock } = harness;
    pool.windows.note(fiveHour(100, clock.now() + HOUR, clock.now()));
    const waiters = [track(pool.acquire()), track(pool.acquire()), track(pool.acquire())];
    clock.advance(HOUR);
    await flush();
    return { ...harness, waiters };
  }

  test("lets one admission go first; its success lets the rest in and says the window reset", async () => {
    const { pool, clock, waiters, events } = await atReset();
    expect(waiters.map((w) => w.settled)).toEqual([true, false, false]);
    pool.windows.note(fiveHour(1, clock.now() + 5 * HOUR, clock.now()));
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, true]);
    expect(events.filter((e) => e.kind === "window_reset").map((e) => e.message)).toEqual([
      "anthropic's 5-hour window reset; agents are admitted again",
    ]);
  });

  test("a probe whose admission never reached its agent hands the probe to the next one", async () => {
    const { pool, waiters } = await atReset();
    expect(waiters.map((w) => w.settled)).toEqual([true, false, false]);
    pool.returnUndelivered(waiters[0]!.leaseId);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, false]); // the next probe, alone
  });

  test("refused again, the pause starts over until the new reset", async () => {
    const { pool, clock, waiters } = await atReset();
    const nextReset = clock.now() + 10 * 60_000;
    pool.windows.note(fiveHour(100, nextReset, clock.now()));
    pool.release(waiters[0]!.leaseId, "rate_limited");
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: nextReset, autoReduced: false });
    clock.advance(10 * 60_000);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, false]);
  });

  test("a probe released rate_limited with no reading pauses 60 s; released otherwise, the rest go in", async () => {
    const { pool, clock, waiters } = await atReset();
    pool.release(waiters[0]!.leaseId, "rate_limited");
    expect(pool.status().pausedUntil).toBe(clock.now() + 60_000);
    clock.advance(60_000);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, false]);
    pool.release(waiters[1]!.leaseId, "failure");
    await flush();
    expect(waiters[2]!.settled).toBe(true);
  });

  test("the slot a successful probe frees still cools down before the next agent takes it", async () => {
    const { pool, clock } = poolHarness({ limit: 1, cooldownMs: 350 });
    pool.windows.note(fiveHour(100, clock.now() + 10, clock.now()));
    clock.advance(10);
    const probe = await admitNow(pool);
    const next = track(pool.acquire());
    pool.release(probe, "success");
    await flush();
    expect(next.settled).toBe(false);
    clock.advance(350);
    await flush();
    expect(next.result?.ok).toBe(true);
  });

  test("a probe that says nothing for 60 s counts as a success", async () => {
    const { clock, waiters } = await atReset();
    clock.advance(59_999);
    await flush();
    expect(waiters[1]!.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, true, true]);
  });
});

describe("holding new agents near the end of a window", () => {
  test("new leases wait with a reason, an agent at work goes through, held ones keep their order", async () => {
    const { pool, clock } = poolHarness({ limit: 5 });
    await admitNow(pool, { agentId: "claude-1", proxied: true });
    pool.windows.setHoldNewAtPercent(90);
    const resetsAt = clock.now() + HOUR;
    pool.windows.note(fiveHour(92, resetsAt, clock.now()));
    const order: string[] = [];
    const queued = (name: string, options: Parameters<typeof pool.acquire>[0]) =>
      track(pool.acquire(options).then((result) => (order.push(name), result)));
    const first = queued("first", { agentId: "new-a" });
    const second = queued("second", { agentId: "new-b", proxied: true });
    await flush();
    expect(pool.status()).toMatchObject({ queued: 2, waitReason: "holding new agents: 5-hour window at 92 %" });
    // A proxy request of an agent admitted in the last 10 minutes passes the held waiters.
    await admitNow(pool, { agentId: "claude-1", proxied: true });
    // The same agent through the API is a new lease: held.
    const api = queued("api", { agentId: "claude-1" });
    await flush();
    expect([first.settled, second.settled, api.settled]).toEqual([false, false, false]);
    clock.advance(HOUR); // the window resets: it counts as 0 % even though nothing was read
    await flush();
    expect(order).toEqual(["first", "second", "api"]);
    expect(pool.status().waitReason).toBeUndefined();
  });

  test("an agent not seen for 10 minutes waits like a new lease", async () => {
    const { pool, clock } = poolHarness({ limit: 5 });
    await admitNow(pool, { agentId: "codex", proxied: true });
    clock.advance(10 * 60_000 + 1);
    pool.windows.setHoldNewAtPercent(80);
    pool.windows.note(fiveHour(85, clock.now() + HOUR, clock.now()));
    const late = track(pool.acquire({ agentId: "codex", proxied: true }));
    await flush();
    expect(late.settled).toBe(false);
  });

  test("a reading without a reset stops holding after an hour; turning the hold off admits at once", async () => {
    const { pool, clock } = poolHarness({ limit: 5 });
    pool.windows.setHoldNewAtPercent(50);
    pool.windows.note({ windows: [{ name: "primary", usedPercent: 70, seenAt: clock.now(), scoped: false }] });
    const a = track(pool.acquire());
    clock.advance(HOUR);
    await flush();
    expect(a.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(a.settled).toBe(true);
    pool.windows.note({ windows: [{ name: "primary", usedPercent: 70, seenAt: clock.now(), scoped: false }] });
    const b = track(pool.acquire());
    await flush();
    expect(b.settled).toBe(false);
    pool.windows.setHoldNewAtPercent(undefined);
    await flush();
    expect(b.settled).toBe(true);
  });

  test("a usage below the hold admits as before, and no hold means no hold at 99 %", async () => {
    const { pool, clock } = poolHarness({ limit: 5 });
    pool.windows.note(fiveHour(99, clock.now() + HOUR, clock.now()));
    await admitNow(pool);
    pool.windows.setHoldNewAtPercent(100);
    await admitNow(pool);
  });
});

describe("warnings", () => {
  test("once at 80 % and once at 95 % per window and period; again after the reset", () => {
    const { pool, clock, events } = poolHarness();
    let resetsAt = clock.now() + HOUR;
    for (const used of [50, 81, 84, 96, 99]) pool.windows.note(fiveHour(used, resetsAt, clock.now()));
    const warnings = () => events.filter((e) => e.kind === "window_warning").map((e) => e.message);
    expect(warnings()).toEqual([
      `anthropic's 5-hour window is at 81 %; it resets at ${hhmm(resetsAt)}.`,
      `anthropic's 5-hour window is at 96 %; it resets at ${hhmm(resetsAt)}.`,
    ]);
    clock.advance(HOUR);
    resetsAt = clock.now() + 5 * HOUR;
    pool.windows.note(fiveHour(10, resetsAt, clock.now()));
    pool.windows.note(fiveHour(85, resetsAt, clock.now()));
    expect(warnings()).toHaveLength(3);
  });
});

describe("token rates pause before the 429", () => {
  test.each([
    ["tokens", "tokens"],
    ["inputTokens", "input tokens"],
    ["outputTokens", "output tokens"],
  ] as const)("0 %s left before a reset pauses until it, without lowering the limit", (bucket, words) => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const resetAt = clock.now() + 20_000;
    pool.noteUpstreamLimits({ [bucket]: { remaining: 0, resetAt }, requests: { remaining: 40 }, seenAt: clock.now() }, true);
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: resetAt, pauseReason: `upstream says 0 ${words} left`, limit: 3 });
  });

  test("tokens left, or a reading from a 429, pause nothing early", () => {
    const { pool, clock } = poolHarness();
    pool.noteUpstreamLimits({ tokens: { remaining: 5, resetAt: clock.now() + 9_000 }, seenAt: clock.now() }, true);
    pool.noteUpstreamLimits({ tokens: { remaining: 0, resetAt: clock.now() + 9_000 }, seenAt: clock.now() }, false);
    expect(pool.status().paused).toBe(false);
  });
});
