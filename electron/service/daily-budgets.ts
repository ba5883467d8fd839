// Each provider's daily budget (SPEC §9) as the service keeps it: one engine budget per provider
// (electron/engine/daily-budget.ts) fed with every priced answer's cost, its events in the
// history, its `budget` on the status entry and, while it pauses the provider, the refusal the
// proxy answers at once like a used-up window's (SPEC §8). The budget is read from the
// provider's options at each use, so a changed setting applies with the next answer or read;
// it is read loosely because the setting's schema lands with the settings table.
import type { ConcurrencyStatusEntry, ConcurrencyStatusResponse, HistoryEvent, HistoryKind } from "../../shared/types";
import type { Clock } from "../engine/clock";
import { DailyBudget, type BudgetView } from "../engine/daily-budget";
import type { ProviderRegistry } from "./provider-registry";

export interface DailyBudgetsDeps {
  clock: Clock;
  providers: Pick<ProviderRegistry, "get" | "isShared">;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  onChange: () => void;
}

export class DailyBudgets {
  private readonly budgets = new Map<string, { budget: DailyBudget; utc: boolean }>();

  constructor(private readonly deps: DailyBudgetsDeps) {}

  /** One priced answer of the provider ended. */
  spend(providerId: string, usd: number): void {
    // Counted with no budget set too: one set mid-day knows what the day has cost so far.
    this.of(providerId, true)?.spend(usd);
  }

  /** While the budget pauses the provider: what the proxy answers at once. */
  refusal(providerId: string): { retryAfterS: number; message: string; kind: "budget" } | undefined {
    const pause = this.of(providerId)?.pause();
    if (!pause) return undefined;
    const retryAfterS = Math.max(1, Math.ceil((pause.until - this.deps.clock.now()) / 1000));
    return { retryAfterS, message: `${providerId}'s ${pause.reason}. New requests are refused until then.`, kind: "budget" };
  }

  /** The status entry's `budget` while one is set, and the pause while it pauses. */
  private view(providerId: string): { budget?: BudgetView; pause?: { until: number; reason: string } } {
    const budget = this.of(providerId);
    const view = budget?.view();
    const pause = budget?.pause();
    return { ...(view ? { budget: view } : {}), ...(pause ? { pause } : {}) };
  }

  /** SPEC §9: `budget` while one is set; the budget's pause shows as the provider's when nothing else pauses it. */
  onEntry(entry: ConcurrencyStatusEntry): ConcurrencyStatusEntry {
    const { budget, pause } = this.view(entry.providerId);
    if (!budget) return entry;
    if (!pause || entry.paused) return { ...entry, budget };
    return { ...entry, budget, paused: true, pausedUntil: pause.until, pauseReason: pause.reason, pauseKind: "budget" };
  }

  onStatus(status: ConcurrencyStatusResponse): ConcurrencyStatusResponse {
    return { ...status, providers: status.providers.map((entry) => this.onEntry(entry)) };
  }

  /** `Resume now`: the provider goes on for the rest of the day. */
  resume(providerId: string): void {
    this.budgets.get(providerId)?.budget.resume();
  }

  close(): void {
    for (const { budget } of this.budgets.values()) budget.dispose();
    this.budgets.clear();
  }

  /** The provider's budget brought up to its setting; undefined while none is set and nothing was counted. */
  private of(providerId: string, create = false): DailyBudget | undefined {
    const dailyUsd = this.deps.providers.get(providerId)?.options.dailyBudgetUsd;
    // Shared providers (SPEC §7) end their day at midnight UTC.
    const utc = this.deps.providers.isShared(providerId);
    let kept = this.budgets.get(providerId);
    if (kept && kept.utc !== utc) {
      kept.budget.dispose();
      this.budgets.delete(providerId);
      kept = undefined;
    }
    if (!kept) {
      if (dailyUsd === undefined && !create) return undefined;
      const event = (kind: HistoryKind, message: string) => this.deps.onEvent({ kind, providerId, message });
      const budget = new DailyBudget(this.deps.clock, providerId, { event, paused: () => this.deps.onChange(), changed: () => this.deps.onChange() }, utc ? { timeZone: "UTC" } : {});
      this.budgets.set(providerId, (kept = { budget, utc }));
    }
    if (kept.budget.view()?.dailyUsd !== dailyUsd) kept.budget.set(dailyUsd);
    return kept.budget;
  }
}
