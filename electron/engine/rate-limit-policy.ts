// What a 429 and the provider's own rate-limit headers do to a pool (SPEC §1): the pause and
// its backoff, the early pause from a reading that says no requests are left, and whether a
// 429 lowers the limit. The pool owns the slots and the queue; this decides when to pause
// them and when to reduce.
import type { HistoryKind, UpstreamLimits } from "../../shared/types";
import type { AdaptiveLimit } from "./adaptive-limit";
import { MAX_RETRY_AFTER_MS, pauseAfter429 } from "./backoff";
import type { Clock } from "./clock";
import type { LeaseAge } from "./lease-slots";
import type { PauseWindow } from "./pause-window";
import * as say from "./pool-messages";

/** What the policy acts on; the pool provides it. */
export interface RateLimitedPool {
  readonly providerId: string;
  readonly clock: Clock;
  readonly pause: PauseWindow;
  readonly limit: AdaptiveLimit;
  /** Answers now every waiter whose deadline falls before `until`: it would time out paused. */
  timeOutBefore(until: number): void;
  event(kind: HistoryKind, message: string): void;
  /** The limit was just lowered: every lease held now was admitted under the old one. */
  limitLowered(): void;
  configChanged(): void;
}

export class RateLimitPolicy {
  private consecutive429 = 0;
  /** The pause came from the provider's headers, not a 429: it does not stop the next 429 from reducing. */
  private earlyPause = false;

  constructor(private readonly pool: RateLimitedPool) {}

  /** A success ends the run of 429s: the next one backs off from the start. */
  succeeded(): void {
    this.consecutive429 = 0;
  }

  rateLimited(age: LeaseAge, retryAfterMs: number | undefined): void {
    const { pool } = this;
    const now = pool.clock.now();
    // A pause the provider's headers asked for came before any 429: this 429 opens the window.
    const wasPaused = pool.pause.active(now) && !this.earlyPause;
    this.earlyPause = false;
    pool.pause.reason = say.PAUSED_BY_429;
    this.consecutive429++;
    pool.event("rate_limited", say.rateLimitedMessage(pool.providerId, retryAfterMs));
    const until = now + pauseAfter429(this.consecutive429, retryAfterMs);
    if (pool.pause.extendTo(until, now)) {
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
    const { pool } = this;
    const now = pool.clock.now();
    // Only a successful answer: after a 429 the 429 rules decide the pause.
    const spent = fromSuccess ? exhaustedBucket(reading, now) : undefined;
    if (!spent) return;
    const wasPaused = pool.pause.active(now);
    const until = Math.min(spent.resetAt, now + MAX_RETRY_AFTER_MS);
    if (!pool.pause.extendTo(until, now)) return;
    if (!wasPaused) {
      this.earlyPause = true;
      pool.pause.reason = say.pausedByUpstreamHeaders(spent.words);
    }
    pool.event("paused", say.earlyPauseMessage(pool.providerId, until - now, spent.words));
    pool.timeOutBefore(until);
  }

  /** The pause was lifted by hand: whatever opened it no longer counts. */
  lifted(): void {
    this.earlyPause = false;
  }
}

const BUCKETS = [
  ["requests", "requests"],
  ["tokens", "tokens"],
  ["inputTokens", "input tokens"],
  ["outputTokens", "output tokens"],
] as const;

/** The bucket (SPEC §8: requests or tokens) that has nothing left before a reset to come; the later reset wins. */
export function exhaustedBucket(reading: UpstreamLimits, now: number): { resetAt: number; words: string } | undefined {
  let found: { resetAt: number; words: string } | undefined;
  for (const [key, words] of BUCKETS) {
    const bucket = reading[key];
    const resetAt = bucket?.resetAt;
    if (bucket?.remaining !== 0 || resetAt === undefined || resetAt <= now) continue;
    if (!found || resetAt > found.resetAt) found = { resetAt, words };
  }
  return found;
}
