// A provider's limit and its adaptive headroom (SPEC §1): a 429 lowers the limit by one,
// one-way, remembering the original; a limit set by hand wipes the slate.
import { validOr } from "../../shared/check";
import { type Checked, checkLimit } from "../../shared/validate";
import type { PoolConfig } from "./pool-types";
import { reductionNotice } from "./pool-messages";

/** A config the engine is handed was checked already: one that is not is a programming error. */
export function valid(checked: Checked<number>): number {
  return validOr(checked, (message) => new RangeError(message));
}

export class AdaptiveLimit {
  value: number;
  private autoReduced: boolean;
  private autoReducedFrom: number | undefined;
  private noticeDismissed: boolean;

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
  reduce(): boolean {
    if (this.value <= 1) return false;
    if (!this.autoReduced) this.autoReducedFrom = this.value;
    this.value--;
    this.autoReduced = true;
    this.noticeDismissed = false;
    return true;
  }

  setByHand(limit: number): void {
    this.value = valid(checkLimit(limit));
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
      ...(this.autoReduced ? { autoReducedFrom: from, notice: reductionNotice(providerId, from, this.value) } : {}),
      noticeDismissed: this.noticeDismissed,
    };
  }
}
