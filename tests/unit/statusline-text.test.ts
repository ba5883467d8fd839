// SPEC §10: what `headroom statusline` reads from Claude Code's input, and the line it prints.
import { expect, test } from "vitest";
import { claudeWindows } from "../../cli/statusline/claude-input";
import { statusLineText } from "../../cli/statusline/status-line-text";
import type { ConcurrencyStatusEntry } from "../../shared/types";

test("Claude Code's rate_limits become 5h and 7d windows; 105 % reads as 100, junk as nothing", () => {
  const input = { rate_limits: { five_hour: { used_percentage: 105, resets_at: 1_776_441_600 }, seven_day: { used_percentage: 34 }, seven_day_opus: { used_percentage: 8 } } };
  expect(claudeWindows(JSON.stringify(input))).toEqual([
    { name: "5h", usedPercent: 100, resetsAt: 1_776_441_600_000 },
    { name: "7d", usedPercent: 34 },
    { name: "7d_opus", usedPercent: 8 },
  ]);
  for (const junk of ["", "null", "[]", "{", '{"rate_limits":[1]}', '{"rate_limits":{"five_hour":{"used_percentage":-1}}}', '{"rate_limits":{"hourly":{"used_percentage":5}}}']) {
    expect(claudeWindows(junk), junk).toEqual([]);
  }
});

const entry = (extra: Partial<ConcurrencyStatusEntry>): ConcurrencyStatusEntry => ({
  providerId: "anthropic", limit: 3, active: 2, queued: 0, paused: false, cooldownMs: 0, autoReduced: false, noticeDismissed: false, recycling: 0, ...extra,
});

test("one line: slots, queue, windows with a reset time when it is within a day; or why it is paused", () => {
  const now = new Date(2026, 5, 1, 12, 0).getTime();
  const windows = [
    { name: "5h", usedPercent: 43.4, resetsAt: new Date(2026, 5, 1, 15, 0).getTime(), seenAt: now },
    { name: "7d", usedPercent: 12, resetsAt: now + 4 * 86_400_000, seenAt: now },
  ];
  expect(statusLineText(entry({ queued: 1, windows }), now)).toBe("anthropic 2/3 · 1 queued · 5h 43% ↻15:00 · 7d 12%");
  expect(statusLineText(entry({ windows: [{ name: "5h", usedPercent: 90, resetsAt: now - 1, seenAt: now - 9 }] }), now)).toBe("anthropic 2/3 · 5h 0%");
  expect(statusLineText(entry({ paused: true, pauseReason: "5-hour window used up; resets 15:00" }), now)).toBe("anthropic paused: 5-hour window used up; resets 15:00");
});
