// One provider's plan windows (SPEC §8): the newest reading of each, how full each counts as
// now (a passed reset is 0 %, a reading without a reset stops counting after an hour), the
// hold near the end of a window, and the 80 % / 95 % warnings. Pure: a timer of the clock
// wakes the pool when a window stops counting, so a hold ends at the reset even when nothing runs.
import type { PlanWindow } from "../../shared/types";
import { windowLengthMs } from "../../shared/window-length";
import type { Clock, TimerHandle } from "./clock";
import * as say from "./window-messages";
import { ACCOUNT_WINDOWS, MAX_WINDOWS, type WindowReading, type WindowSighting } from "./window-readings";

const STALE_WITHOUT_RESET_MS = 3_600_000;
const WARN_AT = [95, 80] as const;
/**
 * Readings of one period disagree on its reset by a little: Codex's `reset-after-seconds` is
 * counted from each answer, a status line rounds. A reset within this of the period's is the same
 * period; the next period's reset is hours (5 h, a week, a day) away.
 */
const RESET_JITTER_MS = 5 * 60_000;
/** Without any reset to go by, a reading this low is a new period (a window starts again near 0 %). */
const NEW_PERIOD_BELOW_PERCENT = 40;

interface Kept extends WindowSighting {
  /** The highest warning already given for this window's current period (0 = none). */
  warned: number;
  /** The reset of the period the warnings were given in, as first read in it. */
  periodEndsAt?: number;
}

export interface WindowWarning {
  name: string;
  message: string;
}

export class PlanWindows {
  private readonly kept = new Map<string, Kept>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly providerId: string,
    /** A window stopped counting (its reset passed, or its reading went stale). */
    private readonly onWake: () => void,
  ) {}

  get size(): number {
    return this.kept.size;
  }

  /** Merges a reading (newest wins per window) and returns the warnings it crossed. */
  note(reading: WindowReading): WindowWarning[] {
    const now = this.clock.now();
    const warnings: WindowWarning[] = [];
    // One window is binding at a time: a reading that names one takes it from the others.
    if (reading.windows.some((w) => w.binding)) for (const w of this.kept.values()) delete w.binding;
    for (const sighting of reading.windows) {
      const before = this.kept.get(sighting.name);
      // SPEC §8: once per threshold and reset period, however the meter swings inside one.
      const period = before && samePeriod(before, sighting, now) ? before : undefined;
      const periodEndsAt = period?.periodEndsAt ?? sighting.resetsAt;
      const window: Kept = {
        ...(before?.minutes === undefined ? {} : { minutes: before.minutes }),
        ...sighting,
        warned: period?.warned ?? 0,
        ...(periodEndsAt === undefined ? {} : { periodEndsAt }),
      };
      const lengthMs = windowLengthMs(window.name, window.minutes);
      if (lengthMs === undefined) delete window.lengthMs;
      else window.lengthMs = lengthMs;
      if (this.kept.size >= MAX_WINDOWS && !before) this.dropOldest();
      this.kept.set(sighting.name, window);
      const warning = this.warn(window, now);
      if (warning) warnings.push(warning);
    }
    this.schedule(now);
    return warnings;
  }

  private warn(window: Kept, now: number): WindowWarning | undefined {
    const used = this.counted(window, now);
    if (window.scoped || used === undefined) return undefined;
    const level = WARN_AT.find((at) => used >= at && window.warned < at);
    if (level === undefined || used >= 100) {
      if (used >= 100) window.warned = WARN_AT[0];
      return undefined;
    }
    window.warned = level;
    const label = say.windowLabel(window.name, window.minutes);
    return { name: window.name, message: say.warningMessage(this.providerId, label, used, window.resetsAt, now) };
  }

  /** Makes room: the oldest of the names that are not the account's own (there are always some, 5 < 8). */
  private dropOldest(): void {
    let oldest: Kept | undefined;
    for (const w of this.kept.values()) {
      if (!ACCOUNT_WINDOWS.includes(w.name) && (!oldest || w.seenAt < oldest.seenAt)) oldest = w;
    }
    if (oldest) this.kept.delete(oldest.name);
  }

  /** The names kept now, at most MAX_WINDOWS. */
  names(): string[] {
    return [...this.kept.keys()];
  }

  /** How full a window counts as now; undefined when it no longer counts. */
  private counted(window: Kept, now: number): number | undefined {
    if (window.usedPercent === undefined) return undefined;
    if (window.resetsAt !== undefined) return window.resetsAt <= now ? 0 : window.usedPercent;
    return now - window.seenAt > STALE_WITHOUT_RESET_MS ? undefined : window.usedPercent;
  }

  /** The fullest account-wide window as it counts now. */
  fullest(now: number): { label: string; percent: number } | undefined {
    let best: { label: string; percent: number } | undefined;
    for (const w of this.kept.values()) {
      const percent = w.scoped ? undefined : this.counted(w, now);
      if (percent !== undefined && (!best || percent > best.percent)) {
        best = { label: say.windowLabel(w.name, w.minutes), percent };
      }
    }
    return best;
  }

  /** Why new leases wait, while an account-wide window is at or above `atPercent`. */
  holdReason(atPercent: number | undefined, now: number): string | undefined {
    if (atPercent === undefined || this.kept.size === 0) return undefined;
    const fullest = this.fullest(now);
    return fullest && fullest.percent >= atPercent ? say.holdReason(fullest.label, fullest.percent) : undefined;
  }

  label(name: string): string {
    return say.windowLabel(name, this.kept.get(name)?.minutes);
  }

  /** The status's `windows`, absent when none was ever seen. */
  views(): PlanWindow[] | undefined {
    if (this.kept.size === 0) return undefined;
    return [...this.kept.values()].map(({ scoped: _s, minutes: _m, warned: _w, periodEndsAt: _p, ...view }) => view);
  }

  /** Wakes the pool at the next moment a window stops counting. */
  private schedule(now: number): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const w of this.kept.values()) {
      if (w.scoped || w.usedPercent === undefined || w.usedPercent === 0) continue;
      const ends = w.resetsAt ?? w.seenAt + STALE_WITHOUT_RESET_MS + 1;
      if (ends > now) next = Math.min(next, ends);
    }
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const at = this.clock.now();
      this.schedule(at);
      this.onWake();
    }, next - now);
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Whether a new reading is of the period the kept window's warnings were given in: its reset is
 * the period's, give or take the readings' jitter, and has not passed by more than that. Without
 * a reset on either side, only a reading near the bottom starts a new period.
 */
function samePeriod(kept: Kept, sighting: WindowSighting, now: number): boolean {
  const endsAt = kept.periodEndsAt;
  if (endsAt !== undefined && now > endsAt + RESET_JITTER_MS) return false;
  const resetsAt = sighting.resetsAt;
  if (endsAt !== undefined && resetsAt !== undefined) return Math.abs(resetsAt - endsAt) <= RESET_JITTER_MS;
  const used = sighting.usedPercent ?? kept.usedPercent;
  return used === undefined || used >= NEW_PERIOD_BELOW_PERCENT;
}
