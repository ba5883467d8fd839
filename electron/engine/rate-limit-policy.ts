// What a 429 and the provider's own rate-limit headers do to a pool (SPEC §1, §6): the 429
// pause and its backoff, the early pause from a reading that says no requests are left, and
// whether a 429 lowers the limit. The pool owns the slots and the queue; this owns the pause
// and decides when it starts and when to reduce.
import type { HistoryKind, UpstreamLimits } from "../../shared/types";
import type { AdaptiveLimit } from "./adaptive-limit";
import { MAX_RETRY_AFTER_MS, pauseAfter429 } from "./backoff";
import type { Clock } from "./clock";
import type { LeaseAge } from "./lease-slots";
import { PauseWindow } from "./pause-window";
import * as say from "./pool-messages";

/** What the policy acts on; the pool provides it. */
export interface RateLimitedPool {
  readonly providerId: string;
  readonly clock: Clock;
  readonly limit: AdaptiveLimit;
  /** A used-up plan window pauses the provider (SPEC §8): a 429 meanwhile is the window's refusal. */
  windowBlocks(): boolean;
  /** The pause ran out on its own. */
  pauseEnded(): void;
  /** Answers now every waiter whose deadline falls before `until`: it would time out paused. */
  timeOutBefore(until: number): void;
  event(kind: HistoryKind, message: string): void;
  /** The limit was just lowered: every lease held now was admitted under the old one. */
  limitLowered(): void;
  configChanged(): void;
}

export class RateLimitPolicy {
  /** The 429 pause, which the provider's headers may also start early. */
  readonly pause: PauseWindow;
  private consecutive429 = 0;
  /** The pause came from the provider's headers, not a 429: it does not stop the next 429 from reducing. */
  private earlyPause = false;
  /** The provider's rate-limit headers, newest reading (the status shows it). */
  private reading: UpstreamLimits | undefined;

  constructor(private readonly pool: RateLimitedPool) {
    this.pause = new PauseWindow(pool.clock, () => pool.pauseEnded());
  }

  /** A success ends the run of 429s: the next one backs off from the start. */
  succeeded(): void {
    this.consecutive429 = 0;
  }

  rateLimited(age: LeaseAge, retryAfterMs: number | undefined): void {
    const { pool } = this;
    // The window's refusal: no backoff, no reduction.
    if (pool.windowBlocks()) {
      pool.event("rate_limited", say.rateLimitedMessage(pool.providerId, retryAfterMs));
      return;
    }
    const now = pool.clock.now();
    // A pause the provider's headers asked for came before any 429: this 429 opens the window.
    const wasPaused = this.pause.active(now) && !this.earlyPause;
    this.earlyPause = false;
    this.pause.reason = say.PAUSED_BY_429;
    this.consecutive429++;
    pool.event("rate_limited", say.rateLimitedMessage(pool.providerId, retryAfterMs));
    const until = now + pauseAfter429(this.consecutive429, retryAfterMs);
    if (this.pause.extendTo(until, now)) {
      pool.event("paused", say.pausedMessage(pool.providerId, until - now));
      pool.timeOutBefore(until);
    }
    // One pause window lowers the limit once, and a late 429 from a lease admitted before
    // the last reduction speaks of the old limit, not the new one.
    if (wasPaused || age === "predates-reduction" || !pool.limit.reduce(now)) return;
    pool.limitLowered();
    pool.event("reduced", pool.limit.reductionEvent(pool.providerId));
    pool.configChanged();
  }

  upstreamReading(reading: UpstreamLimits, fromSuccess: boolean): void {
    this.reading = reading;
    const { pool } = this;
    const now = pool.clock.now();
    // Only a successful answer: after a 429 the 429 rules decide the pause.
    const early = fromSuccess ? earlyPause(reading, now) : undefined;
    if (!early) return;
    const wasPaused = this.pause.active(now);
    if (!this.pause.extendTo(early.until, now)) return;
    if (!wasPaused) {
      this.earlyPause = true;
      this.pause.reason = say.pausedByUpstreamHeaders(early.words);
    }
    pool.event("paused", say.earlyPauseMessage(pool.providerId, early.until - now, early.words));
    pool.timeOutBefore(early.until);
  }

  /** The status's field for the newest reading. */
  readingFields(): { upstreamLimits?: UpstreamLimits } {
    return this.reading ? { upstreamLimits: this.reading } : {};
  }

  /** Resume by hand: whatever opened the pause no longer counts. True when it was paused. */
  lift(): boolean {
    const wasPaused = this.pause.active(this.pool.clock.now());
    this.pause.lift();
    this.earlyPause = false;
    return wasPaused;
  }
}

/**
 * The early pause a successful answer's reading calls for (SPEC §6): until the bucket with
 * nothing left resets, at most MAX_RETRY_AFTER_MS. The shared pool asks Redis for the same.
 */
export function earlyPause(reading: UpstreamLimits, now: number): { until: number; words: string } | undefined {
  const spent = exhaustedBucket(reading, now);
  return spent && { until: Math.min(spent.resetAt, now + MAX_RETRY_AFTER_MS), words: spent.words };
}

const BUCKETS = [
  ["requests", "requests"],
  ["tokens", "tokens"],
  ["inputTokens", "input tokens"],
  ["outputTokens", "output tokens"],
] as const;

/** The bucket (SPEC §8: requests or tokens) that has nothing left before a reset to come; the later reset wins. */
function exhaustedBucket(reading: UpstreamLimits, now: number): { resetAt: number; words: string } | undefined {
  let found: { resetAt: number; words: string } | undefined;
  for (const [key, words] of BUCKETS) {
    const bucket = reading[key];
    const resetAt = bucket?.resetAt;
    if (bucket?.remaining !== 0 || resetAt === undefined || resetAt <= now) continue;
    if (!found || resetAt > found.resetAt) found = { resetAt, words };
  }
  return found;
}
