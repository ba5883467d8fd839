// SPEC §4 "Pace": time gone beside use, from lengthMs and resetsAt, in words.
import { expect, test } from "vitest";
import { paceWords, windowLengthMs, windowPace } from "../../shared/window-pace";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 11, 7, 12, 0, 0);

test("62 % used with 3 of 5 hours left reads as ahead of pace (22 points ahead)", () => {
  const pace = windowPace({ name: "5h", usedPercent: 62, resetsAt: NOW + 3 * HOUR, lengthMs: 5 * HOUR }, NOW)!;
  expect(pace.elapsedPercent).toBeCloseTo(40);
  expect(pace.verdict).toBe("ahead");
  expect(paceWords(pace)).toBe("62 % used, 40 % of the time gone: ahead of pace");
});

test("43 % used with 60 % of the time gone is on pace; ahead starts at 15 points exactly", () => {
  const on = windowPace({ name: "5h", usedPercent: 43, resetsAt: NOW + 2 * HOUR, lengthMs: 5 * HOUR }, NOW)!;
  expect(paceWords(on)).toBe("43 % used, 60 % of the time gone: on pace");
  expect(windowPace({ name: "5h", usedPercent: 55, resetsAt: NOW + 3 * HOUR }, NOW)!.verdict).toBe("ahead");
  expect(windowPace({ name: "5h", usedPercent: 54, resetsAt: NOW + 3 * HOUR }, NOW)!.verdict).toBe("on");
  // Used slower than the time goes: still "on pace" (SPEC §4 has two words).
  expect(windowPace({ name: "5h", usedPercent: 5, resetsAt: NOW + 1 * HOUR }, NOW)!.verdict).toBe("on");
});

test("the window's own lengthMs wins; names 5h, 7d and day say theirs; others have no pace", () => {
  expect(windowLengthMs({ name: "5h", lengthMs: 15 * 60_000 })).toBe(15 * 60_000);
  expect(windowLengthMs({ name: "5h" })).toBe(5 * HOUR);
  expect(windowLengthMs({ name: "7d" })).toBe(7 * 24 * HOUR);
  expect(windowLengthMs({ name: "day" })).toBe(24 * HOUR);
  expect(windowLengthMs({ name: "primary" })).toBeUndefined();
  expect(windowPace({ name: "primary", usedPercent: 50, resetsAt: NOW + HOUR }, NOW)).toBeUndefined();
  expect(windowPace({ name: "primary", usedPercent: 50, resetsAt: NOW + HOUR, lengthMs: 4 * HOUR }, NOW)!.elapsedPercent).toBeCloseTo(75);
});

test("no reset or no use known: no pace mark; a reset already past or far away stays within 0..100", () => {
  expect(windowPace({ name: "5h", usedPercent: 50 }, NOW)).toBeUndefined();
  expect(windowPace({ name: "5h", resetsAt: NOW + HOUR }, NOW)).toBeUndefined();
  expect(windowPace({ name: "5h", usedPercent: 50, resetsAt: NOW - HOUR }, NOW)!.elapsedPercent).toBe(100);
  expect(windowPace({ name: "5h", usedPercent: 50, resetsAt: NOW + 9 * HOUR }, NOW)!.elapsedPercent).toBe(0);
});
