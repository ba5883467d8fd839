// The service's side of SPEC §9 daily budgets: the setting read from the provider's options,
// the history events, `budget` on the status entry, the proxy's refusal and Resume now.
import { expect, test } from "vitest";
import { DailyBudgets } from "../../electron/service/daily-budgets";
import type { ConcurrencyStatusEntry, HistoryEvent } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";

test("a budget set on the provider pauses it at the limit: the status says so, the proxy refuses, Resume lets it go on", () => {
  const clock = createFakeClock(Date.parse("2025-06-10T22:00:00Z"));
  const options: { dailyBudgetUsd?: number } = {};
  const events: Omit<HistoryEvent, "at">[] = [];
  const budgets = new DailyBudgets({
    clock,
    providers: { get: () => ({ options }) as never, isShared: () => true },
    onEvent: (event) => events.push(event),
    onChange: () => {},
  });
  const entry = { providerId: "anthropic", paused: false } as ConcurrencyStatusEntry;
  budgets.spend("anthropic", 3); // counted before any budget was set
  expect(budgets.onEntry(entry)).toBe(entry);
  options.dailyBudgetUsd = 5;
  budgets.spend("anthropic", 1);
  expect(events.map((e) => e.kind)).toEqual(["budget_warning"]);
  expect(budgets.refusal("anthropic")).toBeUndefined();
  budgets.spend("anthropic", 1.5);
  expect(events.map((e) => e.kind)).toEqual(["budget_warning", "budget_reached"]);
  expect(budgets.onEntry(entry)).toMatchObject({
    budget: { dailyUsd: 5, spentUsd: 5.5 },
    paused: true,
    pausedUntil: Date.parse("2025-06-11T00:00:00Z"),
    pauseReason: "daily budget of $5.00 reached; resets at midnight UTC",
  });
  expect(budgets.refusal("anthropic")).toEqual({ kind: "budget", retryAfterS: 7_200, message: "anthropic's daily budget of $5.00 reached; resets at midnight UTC. New requests are refused until then." });
  options.dailyBudgetUsd = 10; // raised above today's cost: lifted at once
  expect(budgets.refusal("anthropic")).toBeUndefined();
  options.dailyBudgetUsd = 5;
  expect(budgets.refusal("anthropic")).toBeDefined();
  budgets.resume("anthropic");
  expect(budgets.refusal("anthropic")).toBeUndefined();
  budgets.close();
});

test("API waiters wait for a budget's pause in their order: a deadline before midnight times out at once, midnight lets them go, and so do a raised budget and Resume", async () => {
  const clock = createFakeClock(Date.parse("2025-06-10T22:00:00Z"));
  const options: { dailyBudgetUsd?: number } = { dailyBudgetUsd: 1 };
  const changes: number[] = [];
  const budgets = new DailyBudgets({ clock, providers: { get: () => ({ options }) as never, isShared: () => true }, onEvent: () => {}, onChange: () => changes.push(clock.now()) });
  expect(budgets.wait("anthropic", undefined)).toBeUndefined(); // nothing pauses it: straight to the pool
  budgets.spend("anthropic", 1);
  expect(budgets.blocks("anthropic")).toBe(true);

  const order: string[] = [];
  const hold = (name: string, deadline?: number) => budgets.wait("anthropic", deadline)!.then((failed) => order.push(failed ? `${name}: ${failed.ok ? "" : failed.failure.kind}` : name));
  const early = hold("early", clock.now() + 3_600_000); // 23:00 UTC, before midnight
  const first = hold("first");
  const second = hold("second", clock.now() + 3 * 3_600_000);
  await early;
  expect(order).toEqual(["early: timeout"]);
  expect(budgets.onEntry({ providerId: "anthropic", paused: false, queued: 0 } as ConcurrencyStatusEntry).queued).toBe(2);

  clock.advance(2 * 3_600_000 - 1);
  await Promise.resolve();
  expect(order).toEqual(["early: timeout"]);
  clock.advance(1); // midnight UTC: the pause ends by its own timer
  await Promise.all([first, second]);
  expect(order).toEqual(["early: timeout", "first", "second"]);

  budgets.spend("anthropic", 1); // the new day's budget reached again
  const raised = hold("raised");
  options.dailyBudgetUsd = 5;
  budgets.refresh("anthropic"); // the settings changed: lifted now, not on the next read
  await raised;
  options.dailyBudgetUsd = 1;
  budgets.refresh("anthropic");
  const resumed = hold("resumed");
  budgets.resume("anthropic");
  await resumed;
  expect(order).toEqual(["early: timeout", "first", "second", "raised", "resumed"]);
  budgets.close();
});
