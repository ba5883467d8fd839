// SPEC §6 "Upstream rate-limit headers": the reading, and the early pause it may cause (SPEC §1).
import { describe, expect, test } from "vitest";
import { parseUpstreamLimits } from "../../electron/engine/upstream-limits";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("reading the headers", () => {
  test("Anthropic's four buckets, resets in RFC 3339", () => {
    const reading = parseUpstreamLimits(
      {
        "anthropic-ratelimit-requests-limit": "50",
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": "2026-01-01T12:00:20Z",
        "anthropic-ratelimit-tokens-remaining": "9000",
        "anthropic-ratelimit-input-tokens-limit": "40000",
        "anthropic-ratelimit-output-tokens-reset": "2026-01-01T12:00:01.500Z",
      },
      NOW,
    );
    expect(reading).toEqual({
      requests: { limit: 50, remaining: 0, resetAt: NOW + 20_000 },
      tokens: { remaining: 9000 },
      inputTokens: { limit: 40000 },
      outputTokens: { resetAt: NOW + 1_500 },
      seenAt: NOW,
    });
  });

  test("OpenAI's buckets, resets as Go durations", () => {
    const reading = parseUpstreamLimits(
      {
        "x-ratelimit-limit-requests": "500",
        "x-ratelimit-remaining-requests": "499",
        "x-ratelimit-reset-requests": "120ms",
        "x-ratelimit-limit-tokens": "30000",
        "x-ratelimit-remaining-tokens": "29000",
        "x-ratelimit-reset-tokens": "6m0s",
      },
      NOW,
    );
    expect(reading).toEqual({
      requests: { limit: 500, remaining: 499, resetAt: NOW + 120 },
      tokens: { limit: 30000, remaining: 29000, resetAt: NOW + 360_000 },
      seenAt: NOW,
    });
  });

  test("no rate-limit headers, or only garbage, is no reading", () => {
    expect(parseUpstreamLimits({ "content-type": "application/json" }, NOW)).toBeUndefined();
    expect(parseUpstreamLimits({ "x-ratelimit-remaining-requests": "lots", "x-ratelimit-reset-requests": "soon" }, NOW)).toBeUndefined();
  });
});

const zeroLeft = (now: number, resetInMs: number) => ({ requests: { limit: 5, remaining: 0, resetAt: now + resetInMs }, seenAt: now });

describe("the early pause", () => {
  test("a success saying 0 requests left pauses until the reset, with a reason, without reducing", async () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const start = clock.now();
    pool.noteUpstreamLimits(zeroLeft(start, 20_000), true);
    expect(pool.status()).toMatchObject({
      paused: true,
      pausedUntil: start + 20_000,
      pauseReason: "upstream says 0 requests left",
      limit: 3,
      autoReduced: false,
      upstreamLimits: zeroLeft(start, 20_000),
    });
    const waiter = track(pool.acquire());
    clock.advance(19_999);
    await flush();
    expect(waiter.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(waiter.result?.ok).toBe(true);
    expect(pool.status()).not.toHaveProperty("pauseReason");
  });

  test("the early pause is capped at 300 s, and a reset in the past or requests left do not pause", () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const now = clock.now();
    pool.noteUpstreamLimits({ requests: { remaining: 3, resetAt: now + 5_000 }, seenAt: now }, true);
    pool.noteUpstreamLimits({ requests: { remaining: 0, resetAt: now - 1 }, seenAt: now }, true);
    expect(pool.status().paused).toBe(false);
    pool.noteUpstreamLimits(zeroLeft(now, 3_600_000), true);
    expect(pool.status().pausedUntil).toBe(now + 300_000);
  });

  test("a reading taken from a 429 never pauses early, but is kept for the status", () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    pool.noteUpstreamLimits(zeroLeft(clock.now(), 20_000), false);
    expect(pool.status()).toMatchObject({ paused: false, upstreamLimits: zeroLeft(clock.now(), 20_000) });
  });

  test("an early pause does not count as already paused: the first 429 inside it still reduces the limit", async () => {
    const { pool, clock } = poolHarness({ limit: 3 });
    const lease = await admitNow(pool);
    pool.noteUpstreamLimits(zeroLeft(clock.now(), 20_000), true);
    pool.release(lease, "rate_limited", 1_000);
    expect(pool.status()).toMatchObject({ limit: 2, autoReduced: true, paused: true, pauseReason: "rate limited (429)" });
  });
});

test("a 429 on a ride pauses and reduces as the lease's release would, and the lease stays held", async () => {
  const { pool } = poolHarness({ limit: 3 });
  const lease = await admitNow(pool);
  expect(pool.rateLimitedOn(lease, 2_000)).toBe(true);
  expect(pool.status()).toMatchObject({ limit: 2, paused: true, active: 1 });
  expect(pool.isHeld(lease)).toBe(true);
  expect(pool.rateLimitedOn("no-such-lease")).toBe(false);
});
