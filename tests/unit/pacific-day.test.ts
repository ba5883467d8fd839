// Midnight Pacific time (when Gemini's per-day quotas reset), DST-correct whatever the host's zone.
import { expect, test } from "vitest";
import { pacificDay } from "../../electron/engine/pacific-day";

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(`${iso}Z`);

test("on a winter day midnight is 08:00 UTC, on a summer day 07:00 UTC", () => {
  expect(pacificDay(utc("2026-01-15T20:00:00"))).toEqual({ nextMidnight: utc("2026-01-16T08:00:00"), sinceMidnightMs: 12 * HOUR });
  expect(pacificDay(utc("2026-07-15T20:00:00"))).toEqual({ nextMidnight: utc("2026-07-16T07:00:00"), sinceMidnightMs: 13 * HOUR });
});

test("across the spring change the day is 23 hours: midnight PST, then midnight PDT", () => {
  // 2026-03-08 02:00 PST → 03:00 PDT.
  expect(pacificDay(utc("2026-03-07T20:00:00")).nextMidnight).toBe(utc("2026-03-08T08:00:00"));
  const justAfter = pacificDay(utc("2026-03-08T08:30:00")); // 00:30 PST, before the change
  expect(justAfter.nextMidnight).toBe(utc("2026-03-09T07:00:00"));
  expect(justAfter.nextMidnight - utc("2026-03-08T08:00:00")).toBe(23 * HOUR);
  expect(pacificDay(utc("2026-03-08T12:00:00")).nextMidnight).toBe(utc("2026-03-09T07:00:00")); // 05:00 PDT
});

test("across the autumn change the day is 25 hours, the repeated hour included", () => {
  // 2026-11-01 02:00 PDT → 01:00 PST.
  const first = pacificDay(utc("2026-11-01T08:30:00")); // 01:30 PDT
  const second = pacificDay(utc("2026-11-01T09:30:00")); // 01:30 PST, the hour again
  expect(first.nextMidnight).toBe(utc("2026-11-02T08:00:00"));
  expect(second.nextMidnight).toBe(utc("2026-11-02T08:00:00"));
  expect(first.sinceMidnightMs).toBe(90 * 60_000);
  expect(utc("2026-11-02T08:00:00") - utc("2026-11-01T07:00:00")).toBe(25 * HOUR);
});

test("at midnight exactly the next one is a day later; a millisecond before, it is that midnight", () => {
  const midnight = utc("2026-07-16T07:00:00");
  expect(pacificDay(midnight)).toEqual({ nextMidnight: midnight + 24 * HOUR, sinceMidnightMs: 0 });
  expect(pacificDay(midnight - 1).nextMidnight).toBe(midnight);
});
