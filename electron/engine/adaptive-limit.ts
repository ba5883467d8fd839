// A provider's limit and its adaptive headroom (SPEC §1): a 429 lowers the limit by one,
// one-way, remembering the original; a limit set by hand wipes the slate.
import { validOr } from "../../shared/check";
import { type Checked, checkLimit } from "../../shared/validate";
import type { PoolConfig } from "./pool-types";
import { loweredAgainNotice, reductionNotice } from "./pool-messages";

/** A 429 this soon after a restore by hand says the restore did not stick (SPEC §4). */
export const RESTORE_STICKS_AFTER_MS = 60_000;

/** A config the engine is handed was checked already: one that is not is a programming error. */
export function valid(checked: Checked<number>): number {
  return validOr(checked, (message) => new RangeError(message));
}

export class AdaptiveLimit {
  value: number;
  private autoReduced: boolean;
  private autoReducedFrom: number | undefined;
  private noticeDismissed: boolean;
  /** When the limit was last restored by hand from a reduction. */
  private restoredAt: number | undefined;
  /** Set when the latest reduction came within a minute of a restore: how long after. */
  private loweredAgainAfterMs: number | undefined;

  constructor(config: PoolConfig) {
    this.value = valid(checkLimit(config.limit));
    this.autoReduced = config.autoReduced;
    // A reduction is always by one, so that is the best guess for a config that lost its origin.
    this.autoReducedFrom = config.autoReduced ? (config.autoReducedFrom ?? config.limit + 1) : undefined;
    this.noticeDismissed = config.noticeDismissed;
  }

  get reduced(): boolean {
    return this.autoReduced;
  }

  /** Lowers the limit by one; false at limit 1, where a 429 only pauses. */
  reduce(now: number): boolean {
    if (this.value <= 1) return false;
    const sinceRestore = this.restoredAt === undefined ? undefined : now - this.restoredAt;
    this.loweredAgainAfterMs = sinceRestore !== undefined && sinceRestore <= RESTORE_STICKS_AFTER_MS ? sinceRestore : undefined;
    this.restoredAt = undefined;
    if (!this.autoReduced) this.autoReducedFrom = this.value;
    this.value--;
    this.autoReduced = true;
    this.noticeDismissed = false;
    return true;
  }

  /** `now` marks a restore (a raise out of a reduction), whose next 429 may say it did not stick. */
  setByHand(limit: number, now?: number): void {
    const checked = valid(checkLimit(limit));
    this.restoredAt = now !== undefined && this.autoReduced && checked > this.value ? now : undefined;
    this.loweredAgainAfterMs = undefined;
    this.value = checked;
    this.autoReduced = false;
    this.autoReducedFrom = undefined;
    this.noticeDismissed = false;
  }

  /** false when the notice was already dismissed. */
  dismiss(): boolean {
    if (this.noticeDismissed) return false;
    this.noticeDismissed = true;
    return true;
  }

  config(cooldownMs: number): PoolConfig {
    return {
      limit: this.value,
      cooldownMs,
      autoReduced: this.autoReduced,
      ...(this.autoReduced && this.autoReducedFrom !== undefined ? { autoReducedFrom: this.autoReducedFrom } : {}),
      noticeDismissed: this.noticeDismissed,
    };
  }

  /**
   * The history's sentence for the reduction that just happened: this step (the shared pool's
   * script words it the same), or that a restore did not stick.
   */
  reductionEvent(providerId: string): string {
    return this.loweredAgainAfterMs === undefined
      ? reductionNotice(providerId, this.value + 1, this.value)
      : loweredAgainNotice(providerId, this.loweredAgainAfterMs, this.value);
  }

  /** The banner's sentence: the original limit and the current one. */
  notice(providerId: string): string {
    const from = this.autoReducedFrom ?? this.value + 1;
    return this.loweredAgainAfterMs === undefined
      ? reductionNotice(providerId, from, this.value)
      : loweredAgainNotice(providerId, this.loweredAgainAfterMs, this.value);
  }

  /**
   * The banner names the original limit and the current one, both persisted, so it reads
   * the same after a restart and tells the user what to restore.
   */
  statusFields(providerId: string): {
    autoReduced: boolean;
    autoReducedFrom?: number;
    notice?: string;
    noticeDismissed: boolean;
  } {
    const from = this.autoReducedFrom as number;
    return {
      autoReduced: this.autoReduced,
      ...(this.autoReduced ? { autoReducedFrom: from, notice: this.notice(providerId) } : {}),
      noticeDismissed: this.noticeDismissed,
    };
  }
}
