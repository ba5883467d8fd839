// SPEC §8 "Paid extra usage" (Anthropic): every combination of the overall unified-status, the
// overage status, overage-in-use and the 5-hour window's own status, with `overage` allow and
// stop. None may pause a provider whose plan still serves; with allow, paying for extra usage
// shows `overage: { since }` and one history line and never pauses; with stop it is a used-up
// window whose refusal says extra usage is off.
import { describe, expect, test } from "vitest";
import { readWindowHeaders } from "../../electron/engine/window-readings";
import { poolHarness } from "../support/pool-harness";
import * as recorded from "../fixtures/plan-window-headers";

const HOUR = 3_600_000;
const OVERALL = ["allowed", "allowed_warning", "rejected", undefined] as const;
const OVERAGE = ["allowed", "allowed_warning", "rejected", undefined] as const;
const IN_USE = ["true", "false", undefined] as const;
const FIVE_HOUR = ["allowed", "rejected", undefined] as const;

function headers(overall?: string, overage?: string, inUse?: string, fiveHour?: string, resetS?: string): Record<string, string> {
  const h: Record<string, string> = {
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
    "anthropic-ratelimit-unified-5h-utilization": fiveHour === "rejected" ? "1.0" : "0.4",
    "anthropic-ratelimit-unified-5h-reset": resetS!,
    "anthropic-ratelimit-unified-reset": resetS!,
  };
  if (overall) h["anthropic-ratelimit-unified-status"] = overall;
  if (overage) h["anthropic-ratelimit-unified-overage-status"] = overage;
  if (inUse) h["anthropic-ratelimit-unified-overage-in-use"] = inUse;
  if (fiveHour) h["anthropic-ratelimit-unified-5h-status"] = fiveHour;
  return h;
}

describe("overage readings in every combination", () => {
  for (const mode of ["allow", "stop"] as const) {
    test(`overage ${mode}: the plan that serves is never paused; extra usage is ${mode === "allow" ? "shown, not paused" : "a used-up window"}`, () => {
      let combos = 0;
      for (const overall of OVERALL) for (const overage of OVERAGE) for (const inUse of IN_USE) for (const fiveHour of FIVE_HOUR) {
        const { pool, clock, events } = poolHarness({ limit: 2 });
        pool.windows.setOverage(mode);
        const resetsAt = Math.ceil((clock.now() + HOUR) / 1000) * 1000;
        const reading = readWindowHeaders(headers(overall, overage, inUse, fiveHour, String(resetsAt / 1000)), clock.now());
        if (reading) pool.windows.note(reading);
        const status = pool.status();
        const at = JSON.stringify({ mode, overall, overage, inUse, fiveHour });
        const serves = (overall === "allowed" || overall === "allowed_warning") && inUse !== "true";
        const paying = (overall === "rejected" && (overage === "allowed" || overage === "allowed_warning")) || inUse === "true";
        const usedUp = overall === "rejected" && !paying;
        if (serves) expect(status.paused, at).toBe(false);
        expect(status.paused, at).toBe(usedUp || (mode === "stop" && paying));
        expect(status.overage !== undefined, at).toBe(mode === "allow" && paying);
        expect(events.filter((e) => e.kind === "overage_started").length, at).toBe(mode === "allow" && paying ? 1 : 0);
        if (mode === "stop" && paying) {
          expect(status.pausedUntil, at).toBe(resetsAt);
          expect(pool.windows.refusal(clock.now())?.message, at).toMatch(/Extra usage is off in Headroom for anthropic\.$/);
        }
        pool.dispose();
        combos++;
      }
      expect(combos).toBe(144);
    });
  }

  test("with allow: one history line when it begins, since kept while it lasts, gone once the plan serves again", () => {
    const { pool, clock, events } = poolHarness({ limit: 2 });
    pool.windows.note(readWindowHeaders(recorded.anthropicRejectedWithOverage, clock.now())!);
    const since = clock.now();
    clock.advance(5_000);
    pool.windows.note(readWindowHeaders(recorded.anthropicRejectedWithOverage, clock.now())!);
    expect(pool.status()).toMatchObject({ paused: false, overage: { since } });
    const lines = events.filter((e) => e.kind === "overage_started").map((e) => e.message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^anthropic is now paying for extra usage: the 5-hour window is used up/);
    pool.windows.note(readWindowHeaders(recorded.anthropicAllowedOverageOff, clock.now())!);
    expect(pool.status().overage).toBeUndefined();
    // Stop at the plan's limit: the next such reading pauses the provider.
    pool.windows.setOverage("stop");
    pool.windows.note(readWindowHeaders(recorded.anthropicRejectedWithOverage, clock.now())!);
    expect(pool.status()).toMatchObject({ paused: true, pauseKind: "window" });
    expect(pool.status().overage).toBeUndefined();
  });
});
