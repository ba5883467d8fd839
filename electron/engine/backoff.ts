// How long a provider stays paused after a 429 (SPEC §1, "429 pause").

/** A Retry-After longer than this is treated as this: a pause is never longer than 5 min. */
export const MAX_RETRY_AFTER_MS = 300_000;
export const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 30_000;

/**
 * The pause a 429 asks for: the provider's own Retry-After when it sent one, else 1 s
 * doubling per consecutive 429 (`consecutive` counts this one, so 1 → 1 s), capped at 30 s.
 */
export function pauseAfter429(consecutive: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && !Number.isNaN(retryAfterMs)) {
    return Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
  }
  const doublings = Math.min(Math.max(0, consecutive - 1), 30);
  return Math.min(FIRST_BACKOFF_MS * 2 ** doublings, MAX_BACKOFF_MS);
}
