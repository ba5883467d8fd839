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
  expect(budgets.refusal("anthropic")).toEqual({ retryAfterS: 7_200, message: "anthropic's daily budget of $5.00 reached; resets at midnight UTC. New requests are refused until then." });
  options.dailyBudgetUsd = 10; // raised above today's cost: lifted at once
  expect(budgets.refusal("anthropic")).toBeUndefined();
  options.dailyBudgetUsd = 5;
  expect(budgets.refusal("anthropic")).toBeDefined();
  budgets.resume("anthropic");
  expect(budgets.refusal("anthropic")).toBeUndefined();
  budgets.close();
});
