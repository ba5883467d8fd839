// How a finished command is reported to Headroom (SPEC §6), with the engine's narrow
// marker and Retry-After reader, so the CLI and the host agree on what a rate limit is.
import { findRetryAfterInText, isRateLimitMarker } from "../../shared/rate-limit-classifier";
import { LIMITS } from "../../shared/limits";
import type { LeaseOutcome } from "../../shared/types";

export interface Outcome {
  outcome: LeaseOutcome;
  retryAfterMs?: number;
}

/** `output` is the watched tail, empty when the command wrote to a terminal. */
export function classifyOutcome(exitCode: number, output: string, now: number): Outcome {
  if (exitCode === 0) return { outcome: "success" };
  if (!isRateLimitMarker(output)) return { outcome: "failure" };
  const wait = findRetryAfterInText(output, now);
  // The API refuses waits over its maximum; the host caps the pause itself (300 s).
  return wait === undefined
    ? { outcome: "rate_limited" }
    : { outcome: "rate_limited", retryAfterMs: Math.min(wait, LIMITS.retryAfterMs.max) };
}
