// A provider's daily budget (SPEC §9 "Daily budget"): what its answers cost since the day's
// midnight (the host's local one, UTC's for a shared provider), and the pause once that reaches
// the budget. The pause is like a used-up window's (SPEC §8): it stops admissions, not answers
// already streaming — an answer's cost is counted when it ends, so the answer that crosses the
// budget finishes and the next admission waits. It lasts until the next midnight, `Resume now`
// lifts it for the rest of the day, and a budget raised above the day's cost lifts it at once.
// The day is counted here on its own, not summed from hourly buckets: a +5:30 zone's midnight
// is no hour's start. Pure: times come from the injected clock, days from local-day.ts.
import type { Clock, TimerHandle } from "./clock";
import { localDay, type LocalDay } from "./local-day";

const BUDGET_WARNING_RATIO = 0.8;
/** Dollar sums drift in floating point; a budget counts as reached within this of it. */
const EPSILON_USD = 1e-9;

export type BudgetEvent = "budget_warning" | "budget_reached";

export interface DailyBudgetHooks {
  event: (kind: BudgetEvent, message: string) => void;
  /** The pause began (waiters whose deadline falls before `until` give up now). */
  paused: (until: number) => void;
  /** The pause ended (midnight, a raised budget, resume): drive the queue. */
  changed: () => void;
}

export interface DailyBudgetOptions {
  /** The zone whose midnight ends the day; absent = the host's own. Shared providers pass "UTC". */
  timeZone?: string;
}

/** What the status entry carries while a budget is set (SPEC §9 `budget`). */
export interface BudgetView {
  dailyUsd: number;
  spentUsd: number;
}

const dollars = (usd: number) => `$${usd.toFixed(2)}`;

export class DailyBudget {
  private dailyUsd: number | undefined;
  private day: LocalDay;
  private spentUsd = 0;
  private warned = false;
  private reached = false;
  /** `Resume now` on this day: no pause until midnight. */
  private resumed = false;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly providerId: string,
    private readonly hooks: DailyBudgetHooks,
    private readonly options: DailyBudgetOptions = {},
  ) {
    this.day = localDay(clock.now(), options.timeZone);
  }

  /** A new budget, or undefined to turn it off. Today's cost is kept either way. */
  set(dailyUsd: number | undefined): void {
    this.roll();
    const wasPaused = this.blocks();
    this.dailyUsd = dailyUsd;
    if (dailyUsd === undefined || this.spentUsd < dailyUsd * BUDGET_WARNING_RATIO) this.warned = false;
    if (dailyUsd === undefined || this.spentUsd + EPSILON_USD < dailyUsd) this.reached = false;
    this.check();
    if (wasPaused && !this.blocks()) {
      this.clearTimer();
      this.hooks.changed();
    }
  }

  /**
   * Today's cost so far as a counter kept elsewhere says (the per-day counter, Redis's sum of
   * every host's): never lowers it. `quiet`: read back at start, so the warning and the
   * reached event said before the restart are not said again (the pause itself is).
   */
  restore(spentUsd: number, date: string, quiet = false): void {
    this.roll();
    if (date !== this.day.date || !(spentUsd > this.spentUsd)) return;
    this.spentUsd = spentUsd;
    this.check(quiet);
  }

  /** One answer ended and was priced: its cost counts towards today. */
  spend(usd: number): void {
    this.roll();
    if (!(usd > 0)) return;
    this.spentUsd += usd;
    this.check();
  }

  /** Paused by the budget: no admission until midnight (or a resume, or a raised budget). */
  blocks(): boolean {
    this.roll();
    return this.reached && !this.resumed;
  }

  /** While paused: when it ends and why, in words (the status entry's `pauseReason`). */
  pause(): { until: number; reason: string } | undefined {
    if (!this.blocks() || this.dailyUsd === undefined) return undefined;
    const at = this.options.timeZone === "UTC" ? "midnight UTC" : "midnight";
    return { until: this.day.end, reason: `daily budget of ${dollars(this.dailyUsd)} reached; resets at ${at}` };
  }

  /** `Resume now`: admissions go on for the rest of the day, whatever they cost. */
  resume(): boolean {
    const was = this.blocks();
    this.resumed = true;
    if (was) {
      this.clearTimer();
      this.hooks.changed();
    }
    return was;
  }

  view(): BudgetView | undefined {
    this.roll();
    return this.dailyUsd === undefined ? undefined : { dailyUsd: this.dailyUsd, spentUsd: this.spentUsd };
  }

  /** Today's date and cost, for whoever keeps them across restarts. */
  today(): { date: string; spentUsd: number } {
    this.roll();
    return { date: this.day.date, spentUsd: this.spentUsd };
  }

  dispose(): void {
    this.clearTimer();
  }

  /** Past midnight: a new day with nothing spent; a pause of the old day ends. */
  private roll(): void {
    const now = this.clock.now();
    if (now < this.day.end) return;
    const wasPaused = this.reached && !this.resumed;
    this.day = localDay(now, this.options.timeZone);
    this.spentUsd = 0;
    this.warned = false;
    this.reached = false;
    this.resumed = false;
    this.clearTimer();
    if (wasPaused) this.hooks.changed();
  }

  private check(quiet = false): void {
    const budget = this.dailyUsd;
    if (budget === undefined) return;
    if (quiet) this.warned = this.warned || this.spentUsd + EPSILON_USD >= budget * BUDGET_WARNING_RATIO;
    if (!this.warned && this.spentUsd + EPSILON_USD >= budget * BUDGET_WARNING_RATIO && this.spentUsd + EPSILON_USD < budget) {
      this.warned = true;
      const percent = Math.floor((this.spentUsd / budget) * 100);
      this.hooks.event("budget_warning", `${this.providerId} has spent ${dollars(this.spentUsd)} of its daily budget of ${dollars(budget)} (${percent} %)`);
    }
    if (this.reached || this.spentUsd + EPSILON_USD < budget) return;
    this.warned = true;
    this.reached = true;
    if (this.resumed) return;
    const at = this.options.timeZone === "UTC" ? "midnight UTC" : "midnight";
    if (!quiet) this.hooks.event("budget_reached", `${this.providerId} reached its daily budget of ${dollars(budget)} (${dollars(this.spentUsd)} spent); paused until ${at}`);
    // The midnight that ends the pause drives the queue even when nothing else happens.
    this.armMidnight();
    this.hooks.paused(this.day.end);
  }

  private armMidnight(): void {
    this.clearTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      // A wall clock set back meanwhile: midnight is still ahead.
      if (this.clock.now() < this.day.end) this.armMidnight();
      else this.roll();
    }, Math.max(0, this.day.end - this.clock.now()));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
