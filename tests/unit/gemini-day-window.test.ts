// Gemini's per-day quota as a plan window (SPEC §6 "Gemini", §8): read from recorded Google
// error bodies, a pause until the next midnight Pacific time (across a DST change, on a fake
// clock), the probe at that midnight, and a per-minute quota left to the 429 rules.
import { describe, expect, test } from "vitest";
import type { Clock } from "../../electron/engine/clock";
import { readGeminiDayRefusal } from "../../electron/engine/window-readings";
import * as recorded from "../fixtures/gemini-error-bodies";
import type { FakeClock } from "../support/fake-clock";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(`${iso}Z`);
const hhmm = (at: number) => {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

describe("reading a Gemini 429's body", () => {
  const now = utc("2026-09-17T06:00:00"); // 23:00 PDT
  const midnight = utc("2026-09-17T07:00:00");

  test("a per-day QuotaFailure, free tier or paid, is the day window used up until midnight Pacific", () => {
    for (const body of [recorded.freeTierPerDay, recorded.paidPerDay]) {
      expect(readGeminiDayRefusal(body, now)).toEqual({
        windows: [{ name: "day", usedPercent: 100, status: "rejected", resetsAt: midnight, seenAt: now, scoped: false }],
        usedUp: { name: "day", resetsAt: midnight },
      });
    }
    const daily = { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "DailyLimitPerProject" }] }] } };
    expect(readGeminiDayRefusal(daily, now)?.usedUp).toEqual({ name: "day", resetsAt: midnight });
    // A stream without alt=sse is a JSON array whose last element is the error.
    expect(readGeminiDayRefusal([{ candidates: [] }, recorded.paidPerDay], now)?.usedUp?.name).toBe("day");
  });

  test("a per-minute quota is no window: its RetryInfo wait is the 429's", () => {
    expect(readGeminiDayRefusal(recorded.freeTierPerMinute, now)).toBeUndefined();
  });

  test("malformed bodies are ignored and never throw", () => {
    const perDay = { quotaId: "GenerateRequestsPerDayPerProjectPerModel" };
    const bodies: unknown[] = [
      undefined, null, "", "x", 42, [], {}, { error: "RESOURCE_EXHAUSTED" }, { error: [] },
      { error: { message: "no code, no status", details: [{ "@type": "google.rpc.QuotaFailure", violations: [perDay] }] } },
      { error: { code: 403, status: "PERMISSION_DENIED", details: [{ "@type": "google.rpc.QuotaFailure", violations: [perDay] }] } },
      { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: "QuotaFailure PerDay" } },
      { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [null, 1, { "@type": 7 }, { "@type": "google.rpc.QuotaFailure", violations: "PerDay" }] } },
      { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "google.rpc.QuotaFailure", violations: [null, { quotaId: 5 }, { quotaId: ["PerDay"] }] }] } },
    ];
    for (const body of bodies) {
      expect(() => readGeminiDayRefusal(body, now), JSON.stringify(body)).not.toThrow();
      expect(readGeminiDayRefusal(body, now), JSON.stringify(body)).toBeUndefined();
    }
  });

  test("refused within ten minutes after midnight, the reset is taken as late: tried again in a minute, not tomorrow", () => {
    const justAfter = utc("2026-09-17T07:05:00"); // 00:05 PDT
    expect(readGeminiDayRefusal(recorded.paidPerDay, justAfter)?.usedUp).toEqual({ name: "day", resetsAt: justAfter + 60_000 });
    const later = utc("2026-09-17T07:10:00");
    expect(readGeminiDayRefusal(recorded.paidPerDay, later)?.usedUp).toEqual({ name: "day", resetsAt: utc("2026-09-18T07:00:00") });
  });
});

/** A Gemini pool whose clock reads `start`; the fake clock's advance still moves it and fires its timers. */
function geminiPool(limit: number, start: number) {
  let shift = 0;
  const shifted = (clock: FakeClock): Clock => {
    shift = start - clock.now();
    return { now: () => clock.now() + shift, setTimeout: (fn, ms) => clock.setTimeout(fn, ms), clearTimeout: (handle) => clock.clearTimeout(handle) };
  };
  const harness = poolHarness({ limit }, { providerId: "gemini", clock: shifted });
  return { ...harness, now: () => harness.clock.now() + shift };
}

describe("the day window in the pool, across the spring DST change", () => {
  // 21:00 PST on 2026-03-07; that night's midnight is PST, the next one PDT (02:00 → 03:00 on the 8th).
  const start = utc("2026-03-08T05:00:00");
  const pstMidnight = utc("2026-03-08T08:00:00");
  const pdtMidnight = utc("2026-03-09T07:00:00");

  test("pauses until midnight Pacific naming the day window, a 429 lowers nothing, the probe at midnight lets the rest in", async () => {
    const { pool, clock, events, now } = geminiPool(3, start);
    const refused = await admitNow(pool);
    pool.windows.note(readGeminiDayRefusal(recorded.freeTierPerDay, now())!);
    pool.release(refused, "rate_limited", 47_000); // the same 429's RetryInfo: the window's pause stands
    expect(pool.status()).toMatchObject({
      paused: true,
      pausedUntil: pstMidnight,
      pauseReason: `per-day window used up; resets ${hhmm(pstMidnight)}`,
      limit: 3,
      autoReduced: false,
      windows: [{ name: "day", usedPercent: 100, status: "rejected", resetsAt: pstMidnight }],
    });
    expect(pool.windows.refusal(now())).toEqual({ retryAfterS: 3 * 3_600, message: expect.stringContaining("gemini's per-day window is used up") });
    expect(events.map((e) => e.kind)).toEqual(["window_exhausted", "rate_limited"]);

    const waiters = [track(pool.acquire()), track(pool.acquire())];
    clock.advance(pstMidnight - now() - 1);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([false, false]);
    clock.advance(1);
    await flush();
    expect(waiters.map((w) => w.settled)).toEqual([true, false]); // the probe goes first
    pool.release(waiters[0]!.leaseId, "success");
    await flush();
    expect(waiters[1]!.settled).toBe(true);
    expect(pool.status()).toMatchObject({ paused: false });
    expect(events.at(-1)).toEqual({ kind: "window_reset", message: "gemini's per-day window reset; agents are admitted again" });

    // The next morning (05:00 PDT, after the change) the quota runs out again: until midnight PDT, 19 hours on.
    clock.advance(utc("2026-03-08T12:00:00") - now());
    pool.windows.note(readGeminiDayRefusal(recorded.paidPerDay, now())!);
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: pdtMidnight });
    expect(pdtMidnight - pstMidnight).toBe(23 * HOUR);
  });

  test("a probe refused again just after midnight waits one more minute, not another day", async () => {
    const { pool, clock, now } = geminiPool(2, start);
    pool.windows.note(readGeminiDayRefusal(recorded.paidPerDay, now())!);
    const probe = track(pool.acquire());
    clock.advance(pstMidnight - now());
    await flush();
    pool.windows.note(readGeminiDayRefusal(recorded.paidPerDay, now())!);
    pool.release(probe.leaseId, "rate_limited");
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: pstMidnight + 60_000, limit: 2 });
    const next = track(pool.acquire());
    clock.advance(60_000);
    await flush();
    expect(next.settled).toBe(true);
  });
});
