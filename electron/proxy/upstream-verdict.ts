// What an exchange's ending says about the provider (its pool of slots) and about the route
// (the breaker). SPEC §6: 429 → rate_limited and a neutral route; 529/overloaded, 5xx,
// connection errors and timeouts → route failure without auto-reduce; other 4xx → neutral;
// 2xx/3xx → success; an error inside a 200 stream is never a success; a client that left
// first is `abandoned` (neutral for both, and a probe claim goes back).
import type { IncomingHttpHeaders } from "node:http";
import type { LeaseOutcome, RouteOutcome } from "../../shared/types";
import { parseResetHeaders } from "../engine/rate-limit-classifier";
import type { ForwardEnd } from "./forward";
import type { StreamError } from "./stream-errors";

export interface Verdict {
  lease: LeaseOutcome;
  retryAfterMs?: number;
  /** "release" hands a probe claim back: the run said nothing about the route. */
  route: RouteOutcome | "release";
  reason?: string;
}

function statusVerdict(status: number, headers: IncomingHttpHeaders, now: number): Verdict {
  if (status === 429) {
    const retryAfterMs = parseResetHeaders(headers, now);
    // A 429 is about the account's capacity, not about whether this model works.
    return { lease: "rate_limited", ...(retryAfterMs === undefined ? {} : { retryAfterMs }), route: "neutral" };
  }
  if (status >= 500) {
    // A failure, not rate_limited: an overloaded provider is not a sign our limit is too high.
    const reason = status === 529 ? "upstream answered 529 (overloaded)" : `upstream answered ${status}`;
    return { lease: "failure", route: "failure", reason };
  }
  // A 4xx other than 429 is the request's fault (bad key, bad body): the provider answered
  // normally, so its slot is released as a success and the route learns nothing.
  if (status >= 400) return { lease: "success", route: "neutral" };
  return { lease: "success", route: "success" };
}

function streamErrorVerdict(error: StreamError): Verdict {
  if (error.kind === "rate_limited") return { lease: "rate_limited", route: "neutral" };
  if (error.kind === "server") return { lease: "failure", route: "failure", reason: `upstream stream error ${error.type}` };
  // Neither the account's capacity nor the route's health, but not a success either.
  return { lease: "failure", route: "neutral" };
}

export function verdictOf(end: ForwardEnd, now: number, streamError?: StreamError): Verdict {
  if (streamError && end.kind !== "upstream_error") return streamErrorVerdict(streamError);
  switch (end.kind) {
    case "completed":
      return statusVerdict(end.status, end.headers, now);
    case "upstream_error":
      return { lease: "failure", route: "failure", reason: end.timedOut ? "timeout" : end.detail };
    case "client_gone": {
      // An error status already received stands; otherwise the client simply left, which
      // says nothing about the provider: abandoned, no success credited, probe claim back.
      if (end.status !== undefined && end.headers && (end.status === 429 || end.status >= 500)) {
        return statusVerdict(end.status, end.headers, now);
      }
      return { lease: "abandoned", route: "release" };
    }
  }
}
