// Each provider's daily budget (SPEC §9) as the service keeps it: one engine budget per provider
// (electron/engine/daily-budget.ts) fed with every priced answer's cost, its events in the
// history, its `budget` on the status entry and, while it pauses the provider, the refusal the
// proxy answers at once like a used-up window's and the API waiters held until it ends (SPEC §8,
// budget-hold.ts). The budget is read from the provider's options at each use, and again right
// after a settings change (`refresh`), so a raised budget lifts the pause at once. Today's cost
// comes back from the per-day counter when the host starts; a shared provider's is every host's
// sum in Redis (shared-spend.ts), read at start and every 2 s, and added to with each answer.
import type { AcquireResult } from "../engine/pool-types";
import type { ConcurrencyStatusEntry, ConcurrencyStatusResponse, HistoryEvent, HistoryKind } from "../../shared/types";
import type { Clock, TimerHandle } from "../engine/clock";
import { DailyBudget, type BudgetView } from "../engine/daily-budget";
import type { SharedHub } from "../shared-pool/shared-hub";
import { SharedSpend } from "../shared-pool/shared-spend";
import { BudgetHold } from "./budget-hold";
import type { ProviderRegistry } from "./provider-registry";

/** How often a host reads the other hosts' cost of a shared provider with a budget. */
const SHARED_READ_MS = 2_000;

export interface DailyBudgetsDeps {
  clock: Clock;
  providers: Pick<ProviderRegistry, "get" | "isShared">;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  onChange: () => void;
  /** A local provider's cost on a host-local date as the per-day counter holds it (usage/days.json). */
  spentOn?: (providerId: string, date: string) => number;
  /** The Redis shared providers' costs add up in (SPEC §7); absent without Redis. */
  hub?: SharedHub | undefined;
  log?: ((message: string, state?: unknown) => void) | undefined;
}

export class DailyBudgets {
  private readonly budgets = new Map<string, { budget: DailyBudget; utc: boolean }>();
  private readonly hold = new BudgetHold((providerId) => this.of(providerId)?.pause()?.until);
  private readTimer: TimerHandle | undefined;
  private readonly shared: SharedSpend | undefined;
  private readonly reading = new Set<string>();

  constructor(private readonly deps: DailyBudgetsDeps) {
    this.shared = deps.hub && new SharedSpend(deps.hub);
  }

  /** One priced answer of the provider ended. */
  spend(providerId: string, usd: number): void {
    const fresh = !this.budgets.has(providerId);
    // Counted with no budget set too: one set mid-day knows what the day has cost so far.
    const budget = this.of(providerId, true);
    const kept = this.budgets.get(providerId);
    if (!budget || !kept) return;
    const shared = kept.utc ? this.shared : undefined;
    if (shared) {
      const { date } = budget.today();
      shared.add(providerId, date, usd).then((sum) => this.of(providerId)?.restore(sum, date), (error: unknown) => this.deps.log?.(`The cost of ${providerId} could not be added in Redis`, error));
    }
    // A budget made just now read today's cost from the per-day counter, this answer's included.
    if (!fresh || kept.utc) budget.spend(usd);
  }

  /**
   * SPEC §9: an API waiter of a provider its budget pauses waits until the pause ends (resolves
   * undefined then), or is answered at once (a deadline before it). Undefined at once while no
   * budget pauses it; proxy requests are refused instead, never held here.
   */
  wait(providerId: string, deadline: number | undefined, signal?: AbortSignal): Promise<AcquireResult | undefined> | undefined {
    return this.hold.wait(providerId, deadline, signal);
  }

  /** The provider's budget pauses it now (an admission made while it queued goes back). */
  blocks(providerId: string): boolean {
    return this.of(providerId)?.blocks() === true;
  }

  /** The provider's settings changed: a raised or removed budget lifts its pause now, and says so. */
  refresh(providerId: string): void {
    this.of(providerId);
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
    const queued = entry.queued + this.hold.count(entry.providerId);
    if (!pause || entry.paused) return { ...entry, budget, queued };
    return { ...entry, budget, queued, paused: true, pausedUntil: pause.until, pauseReason: pause.reason, pauseKind: "budget" };
  }

  onStatus(status: ConcurrencyStatusResponse): ConcurrencyStatusResponse {
    return { ...status, providers: status.providers.map((entry) => this.onEntry(entry)) };
  }

  /** `Resume now`: the provider goes on for the rest of the day. */
  resume(providerId: string): void {
    this.budgets.get(providerId)?.budget.resume();
  }

  close(): void {
    if (this.readTimer !== undefined) this.deps.clock.clearTimeout(this.readTimer);
    this.hold.close();
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
      const changed = () => {
        this.hold.wake();
        this.deps.onChange();
      };
      const budget = new DailyBudget(this.deps.clock, providerId, { event, paused: () => this.deps.onChange(), changed }, utc ? { timeZone: "UTC" } : {});
      this.budgets.set(providerId, (kept = { budget, utc }));
      budget.set(dailyUsd);
      this.readBack(providerId, budget, utc);
    }
    if (kept.budget.view()?.dailyUsd !== dailyUsd) kept.budget.set(dailyUsd);
    if (utc && dailyUsd !== undefined) this.armSharedRead();
    return kept.budget;
  }

  /** A budget made now learns what today has cost so far: a restart at $19 of $20 stays at $19. */
  private readBack(providerId: string, budget: DailyBudget, utc: boolean): void {
    const { date } = budget.today();
    if (!utc) {
      const spent = this.deps.spentOn?.(providerId, date);
      if (spent !== undefined) budget.restore(spent, date, true);
      return;
    }
    this.readShared(providerId, budget, date, true);
  }

  private readShared(providerId: string, budget: DailyBudget, date: string, quiet = false): void {
    // While Redis is unreachable reads wait in its queue: one at a time per provider, not one every 2 s.
    if (!this.shared || this.reading.has(providerId)) return;
    this.reading.add(providerId);
    this.shared.read(providerId, date).then(
      (sum) => {
        if (this.budgets.get(providerId)?.budget === budget) budget.restore(sum, date, quiet);
      },
      (error: unknown) => this.deps.log?.(`The cost of ${providerId} could not be read from Redis`, error),
    ).finally(() => this.reading.delete(providerId));
  }

  /** Every 2 s while a shared provider has a budget: the other hosts' cost reaches this host's budget. */
  private armSharedRead(): void {
    if (this.readTimer !== undefined || !this.shared) return;
    this.readTimer = this.deps.clock.setTimeout(() => {
      this.readTimer = undefined;
      let any = false;
      for (const [providerId, { budget, utc }] of this.budgets) {
        if (!utc || budget.view() === undefined) continue;
        any = true;
        this.readShared(providerId, budget, budget.today().date);
      }
      if (any) this.armSharedRead();
    }, SHARED_READ_MS);
  }
}
