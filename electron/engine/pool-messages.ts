// The sentences a provider pool shows people: history entries, the banner, the watchdog log.
import { formatDuration } from "../../shared/duration";

export const reductionNotice = (providerId: string, from: number, to: number): string =>
  `Limit for ${providerId} lowered from ${from} to ${to} after a rate limit (429). ` +
  "Restore it when the provider allows more.";

/** SPEC §4 "Restore that does not stick"; the shell's alerts know this sentence and do not repeat it. */
export const loweredAgainNotice = (providerId: string, afterMs: number, to: number): string =>
  `${providerId} lowered the limit again ${Math.max(1, Math.round(afterMs / 1000))} s after the restore: ` +
  `the provider allows ${to} right now`;

export const rateLimitedMessage = (providerId: string, retryAfterMs?: number): string =>
  retryAfterMs === undefined
    ? `${providerId} answered 429 (rate limited) without a Retry-After.`
    : `${providerId} answered 429 (rate limited) and asked to retry after ${formatDuration(retryAfterMs)}.`;

export const pausedMessage = (providerId: string, pauseMs: number): string =>
  `New admissions to ${providerId} are paused for ${formatDuration(pauseMs)} after a rate limit (429).`;

export const resumedMessage = (providerId: string): string =>
  `Admissions to ${providerId} were resumed by hand before the pause ended.`;

export const leaseExpiredMessage = (providerId: string, leaseId: string, agentId?: string): string =>
  `Lease ${leaseId} on ${providerId}${agentId === undefined ? "" : ` (agent ${agentId})`} expired without a ` +
  "heartbeat; its slot was released as a failure.";

export const watchdogMessage = (providerId: string, queued: number, quietMs: number): string =>
  `Watchdog: ${providerId} had ${queued} waiting beside a free slot and no admission for ` +
  `${formatDuration(quietMs)}; driving its queue again.`;

/** The pause reasons of the status (SPEC §1 `pauseReason`). */
export const PAUSED_BY_429 = "rate limited (429)";
export const pausedByUpstreamHeaders = (what: string): string => `upstream says 0 ${what} left`;
export const PAUSED_BY_UPSTREAM_HEADERS = pausedByUpstreamHeaders("requests");

export const earlyPauseMessage = (providerId: string, pauseMs: number, what = "requests"): string =>
  `New admissions to ${providerId} are paused for ${formatDuration(pauseMs)}: its rate-limit headers say ` +
  `no ${what} are left until their reset.`;
