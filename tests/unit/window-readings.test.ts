import { describe, expect, test } from "vitest";
import {
  readCodexRateLimitsEvent,
  readUsageLimitRefusal,
  readWindowHeaders,
} from "../../electron/engine/window-readings";
import * as recorded from "../fixtures/plan-window-headers";

const now = recorded.RECORDED_AT;
const byName = (reading: ReturnType<typeof readWindowHeaders>) =>
  Object.fromEntries((reading?.windows ?? []).map((w) => [w.name, w]));

describe("Anthropic's unified headers", () => {
  test("the full recorded set gives the 5-hour and weekly windows, overage and fallback are not windows", () => {
    const reading = readWindowHeaders(recorded.anthropicFullSet, now);
    const windows = byName(reading);
    expect(Object.keys(windows).sort()).toEqual(["5h", "7d"]);
    expect(windows["5h"]).toMatchObject({ usedPercent: 42, status: "allowed", binding: true, scoped: false });
    expect(windows["5h"]!.resetsAt).toBe(now + 3 * 3_600_000);
    expect(windows["7d"]).toMatchObject({ usedPercent: 73.7, status: "warning" });
    expect(windows["7d"]!.binding).toBeUndefined();
    expect(reading?.usedUp).toBeUndefined();
  });

  test("allowed with overage switched off is no pause", () => {
    const reading = readWindowHeaders(recorded.anthropicAllowedOverageOff, now);
    expect(byName(reading)["5h"]?.usedPercent).toBe(13);
    expect(reading?.usedUp).toBeUndefined();
  });

  test("a drained 5-hour window is used up until its own reset, not the 7999 s Retry-After rounded", () => {
    const reading = readWindowHeaders(recorded.anthropicFiveHourRejected, now);
    expect(reading?.usedUp).toEqual({ name: "5h", resetsAt: now + 7_999_000 });
  });

  test("rejected while overage is allowed still succeeds: no pause", () => {
    expect(readWindowHeaders(recorded.anthropicRejectedWithOverage, now)?.usedUp).toBeUndefined();
  });

  test("a rejected model-scoped window is shown, binding, and never pauses the provider", () => {
    const reading = readWindowHeaders(recorded.anthropicModelWindowRejected, now);
    expect(byName(reading)["7d_opus"]).toMatchObject({ scoped: true, binding: true, status: "rejected", usedPercent: 100 });
    expect(reading?.usedUp).toBeUndefined();
  });
});

describe("Codex's headers and event", () => {
  test("primary and secondary with their resets, the exact reset-at preferred", () => {
    const windows = byName(readWindowHeaders(recorded.codexPro, now));
    expect(Object.keys(windows).sort()).toEqual(["primary", "secondary"]);
    expect(windows.primary).toMatchObject({ usedPercent: 0, minutes: 300, resetsAt: now + 275_000, scoped: false });
    expect(windows.secondary).toMatchObject({ usedPercent: 2, minutes: 10080 });
  });

  test("a family is model-scoped: bengalfox at 100 % pauses nothing", () => {
    const reading = readWindowHeaders(recorded.codexWithFamily, now);
    expect(byName(reading).bengalfox_primary).toMatchObject({ usedPercent: 100, scoped: true });
    expect(reading?.usedUp).toBeUndefined();
  });

  test("reset-after-seconds alone counts from now", () => {
    const reading = readWindowHeaders({ "x-codex-primary-used-percent": "100", "x-codex-primary-reset-after-seconds": "90" }, now);
    expect(reading?.usedUp).toEqual({ name: "primary", resetsAt: now + 90_000 });
  });

  test("usage_limit_reached in a 429's body is the primary window, reset from resets_at", () => {
    const headers = readWindowHeaders(recorded.codexUsageLimit.headers, now);
    const refusal = readUsageLimitRefusal(recorded.codexUsageLimit.body, headers, now);
    expect(refusal?.usedUp).toEqual({ name: "primary", resetsAt: now + 3_600_000 });
    const relative = readUsageLimitRefusal({ error: { type: "usage_limit_reached", resets_in_seconds: 120 } }, undefined, now);
    expect(relative?.usedUp).toEqual({ name: "primary", resetsAt: now + 120_000 });
  });

  test("usage_limit_reached of an active model family pauses nothing", () => {
    const headers = readWindowHeaders({ "x-codex-primary-used-percent": "20", "x-codex-spark-primary-used-percent": "100" }, now);
    expect(readUsageLimitRefusal({ error: { type: "usage_limit_reached" } }, headers, now)?.usedUp).toBeUndefined();
  });

  test("the codex.rate_limits event, with reset_at or reset_after_seconds", () => {
    const windows = byName(readCodexRateLimitsEvent(recorded.codexRateLimitsEvent, now));
    expect(windows.primary).toMatchObject({ usedPercent: 31, resetsAt: now + 2 * 3_600_000 });
    expect(windows.secondary).toMatchObject({ usedPercent: 40, resetsAt: now + 604_800_000 });
  });

  test("an event for another metered limit is that family's", () => {
    const event = { type: "codex.rate_limits", metered_limit_name: "codex_bengalfox", rate_limits: { secondary: { used_percent: 100 } } };
    const reading = readCodexRateLimitsEvent(event, now);
    expect(reading?.windows.map((w) => [w.name, w.scoped])).toEqual([["bengalfox_secondary", true]]);
    expect(reading?.usedUp).toBeUndefined();
  });
});

describe("junk never fails and never counts", () => {
  const junk = [
    "", " ", "NaN", "Infinity", "-1", "1e400", "0x10", "12abc", "１２", "\u0000", "9".repeat(400), "1.2.3", "true",
  ];
  test.each(junk)("a header value of %j is ignored", (value) => {
    const headers = {
      "anthropic-ratelimit-unified-status": value,
      "anthropic-ratelimit-unified-5h-utilization": value,
      "anthropic-ratelimit-unified-5h-reset": value,
      "anthropic-ratelimit-unified-representative-claim": value,
      "x-codex-primary-used-percent": value,
      "x-codex-primary-reset-at": value,
    };
    const reading = readWindowHeaders(headers, now);
    for (const w of reading?.windows ?? []) {
      expect(w.usedPercent === undefined || (w.usedPercent >= 0 && w.usedPercent <= 100)).toBe(true);
      expect(w.resetsAt === undefined || w.resetsAt > now).toBe(true);
    }
    expect(reading?.usedUp).toBeUndefined();
  });

  test("names that do not fit are dropped and at most 8 windows are kept", () => {
    const headers: Record<string, string> = {
      "anthropic-ratelimit-unified-Bad Name-utilization": "0.5",
      [`anthropic-ratelimit-unified-${"w".repeat(33)}-utilization`]: "0.5",
      "anthropic-ratelimit-unified-grace-5h-utilization": "0.4",
    };
    for (let i = 0; i < 20; i++) headers[`anthropic-ratelimit-unified-w${i}-utilization`] = "0.5";
    const reading = readWindowHeaders(headers, now);
    expect(reading?.windows).toHaveLength(8);
    for (const w of reading!.windows) expect(w.name).toMatch(/^[a-z0-9_]{1,32}$/);
  });

  test("an array value, a bare status and events of any shape are handled", () => {
    expect(byName(readWindowHeaders({ "x-codex-primary-used-percent": ["50", "60"] }, now)).primary?.usedPercent).toBe(50);
    for (const event of [null, 1, "x", [], {}, { type: "codex.rate_limits" }, { type: "codex.rate_limits", rate_limits: [] },
      { type: "codex.rate_limits", rate_limits: { allowed: true } }, { type: "codex.rate_limits", rate_limits: { primary: { used_percent: "lots" } } }]) {
      expect(() => readCodexRateLimitsEvent(event, now)).not.toThrow();
      expect(readCodexRateLimitsEvent(event, now)?.usedUp).toBeUndefined();
    }
    for (const body of [null, "x", { error: "usage_limit_reached" }, { error: { type: "rate_limit_error" } }]) {
      expect(readUsageLimitRefusal(body, undefined, now)).toBeUndefined();
    }
  });

  test("a reset more than a month out is no reset", () => {
    const far = String(Math.round(now / 1000) + 400 * 86_400);
    const reading = readWindowHeaders({ "x-codex-primary-used-percent": "10", "x-codex-primary-reset-at": far }, now);
    expect(byName(reading).primary?.resetsAt).toBeUndefined();
  });
});
