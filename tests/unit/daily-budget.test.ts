// A provider's daily budget (SPEC §9), moved through its days by a fake clock: the warning at
// 80 %, the pause at 100 % that lets the answer in flight finish, midnight (DST days included),
// a raised budget, `Resume now`, and shared providers' UTC day.
import { expect, test } from "vitest";
import { DailyBudget, type BudgetEvent } from "../../electron/engine/daily-budget";
import { localDay } from "../../electron/engine/local-day";
import { createFakeClock } from "../support/fake-clock";

const HOUR = 3_600_000;

function budgetAt(isoUtc: string, timeZone: string) {
  const clock = createFakeClock(Date.parse(isoUtc));
  const events: { kind: BudgetEvent; message: string }[] = [];
  const changes: number[] = [];
  const pauses: number[] = [];
  const budget = new DailyBudget(clock, "anthropic", {
    event: (kind, message) => events.push({ kind, message }),
    changed: () => changes.push(clock.now()),
    paused: (until) => pauses.push(until),
  }, { timeZone });
  /** An admission as a pool makes it: refused while the budget pauses the provider. */
  const admit = () => !budget.blocks();
  return { clock, budget, events, changes, pauses, admit };
}

test("a warning at 80 %, and at the budget the answer in flight finishes while the next admission pauses until local midnight", () => {
  const { clock, budget, events, admit, pauses } = budgetAt("2025-06-10T14:00:00Z", "Europe/Berlin"); // 16:00 in Berlin
  budget.set(20);
  budget.spend(15.99);
  expect(events).toEqual([]);
  budget.spend(0.01);
  expect(events.map((e) => e.kind)).toEqual(["budget_warning"]);
  expect(events[0]!.message).toBe("anthropic has spent $16.00 of its daily budget of $20.00 (80 %)");

  // One stream is admitted under the budget; its cost arrives only when it ends.
  expect(admit()).toBe(true);
  clock.advance(60_000);
  budget.spend(4.5); // it ended: $20.50 today
  expect(events.map((e) => e.kind)).toEqual(["budget_warning", "budget_reached"]);
  expect(admit()).toBe(false);
  const midnightBerlin = Date.parse("2025-06-10T22:00:00Z");
  expect(pauses).toEqual([midnightBerlin]);
  expect(budget.pause()).toEqual({ until: midnightBerlin, reason: "daily budget of $20.00 reached; resets at midnight" });
  expect(budget.view()).toEqual({ dailyUsd: 20, spentUsd: 20.5 });

  clock.advance(midnightBerlin - clock.now() - 1);
  expect(admit()).toBe(false);
  clock.advance(1);
  expect(admit()).toBe(true);
  expect(budget.view()).toEqual({ dailyUsd: 20, spentUsd: 0 });
});

test("midnight lifts the pause by its own timer, so waiters are driven without another request", () => {
  const { clock, budget, changes } = budgetAt("2025-06-10T20:00:00Z", "UTC");
  budget.set(1);
  budget.spend(1);
  expect(budget.blocks()).toBe(true);
  clock.advance(4 * HOUR);
  expect(changes).toEqual([Date.parse("2025-06-11T00:00:00Z")]);
  expect(budget.blocks()).toBe(false);
});

test("raising the budget above today's cost lifts the pause at once; lowering it to today's cost pauses", () => {
  const { budget, events, changes } = budgetAt("2025-06-10T10:00:00Z", "UTC");
  budget.set(10);
  budget.spend(10);
  expect(budget.blocks()).toBe(true);
  budget.set(25);
  expect(budget.blocks()).toBe(false);
  expect(changes).toHaveLength(1);
  budget.set(10);
  expect(budget.blocks()).toBe(true);
  expect(events.map((e) => e.kind)).toEqual(["budget_reached", "budget_reached"]);
  budget.set(undefined);
  expect(budget.blocks()).toBe(false);
  expect(budget.view()).toBeUndefined();
});

test("Resume now lifts it for the rest of the day; the next day counts afresh", () => {
  const { clock, budget, events } = budgetAt("2025-06-10T10:00:00Z", "UTC");
  budget.set(5);
  budget.spend(6);
  expect(budget.resume()).toBe(true);
  budget.spend(10);
  expect(budget.blocks()).toBe(false);
  expect(events.filter((e) => e.kind === "budget_reached")).toHaveLength(1);
  clock.advance(14 * HOUR); // the next day
  budget.spend(5);
  expect(budget.blocks()).toBe(true);
});

test("the day a clock goes forward is 23 hours long, and the day it goes back 25 (New York)", () => {
  const spring = budgetAt("2025-03-09T06:00:00Z", "America/New_York"); // 01:00 EST, the day clocks skip 02:00
  spring.budget.set(1);
  spring.budget.spend(1);
  expect(spring.pauses).toEqual([Date.parse("2025-03-10T04:00:00Z")]); // midnight EDT
  spring.clock.advance(22 * HOUR - 1);
  expect(spring.budget.blocks()).toBe(true);
  spring.clock.advance(1);
  expect(spring.budget.blocks()).toBe(false);

  const fall = budgetAt("2025-11-02T05:00:00Z", "America/New_York"); // 01:00 EDT, the day clocks repeat 01:00
  fall.budget.set(1);
  fall.budget.spend(1);
  expect(fall.pauses).toEqual([Date.parse("2025-11-03T05:00:00Z")]); // midnight EST: 24 h after 01:00 EDT
  fall.clock.advance(24 * HOUR - 1);
  expect(fall.budget.blocks()).toBe(true);
  fall.clock.advance(1);
  expect(fall.budget.blocks()).toBe(false);
});

test("a zone whose midnight is skipped starts the day at 01:00, and a +5:30 zone's day at 18:30 UTC", () => {
  // São Paulo went from 00:00 straight to 01:00 on 4 November 2018.
  expect(localDay(Date.parse("2018-11-03T12:00:00Z"), "America/Sao_Paulo")).toEqual({
    date: "2018-11-03",
    start: Date.parse("2018-11-03T03:00:00Z"),
    end: Date.parse("2018-11-04T03:00:00Z"), // 01:00 local, the day's first instant
  });
  const kolkata = localDay(Date.parse("2025-06-01T20:00:00Z"), "Asia/Kolkata");
  expect(kolkata).toEqual({ date: "2025-06-02", start: Date.parse("2025-06-01T18:30:00Z"), end: Date.parse("2025-06-02T18:30:00Z") });
});

test("a shared provider's day ends at midnight UTC, and the pause says so", () => {
  const { budget } = budgetAt("2025-06-10T23:00:00Z", "UTC");
  budget.set(2);
  budget.restore(2.5, "2025-06-10"); // every host's cost, summed in Redis
  expect(budget.pause()).toEqual({ until: Date.parse("2025-06-11T00:00:00Z"), reason: "daily budget of $2.00 reached; resets at midnight UTC" });
  budget.restore(9, "2025-06-09"); // yesterday's sum counts for nothing today
  expect(budget.today()).toEqual({ date: "2025-06-10", spentUsd: 2.5 });
});
