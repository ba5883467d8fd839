// What an exchange's ending says about the provider (its pool of slots) and about the route
// (the breaker). SPEC §6: 429 → rate_limited and a neutral route; 529/overloaded, 5xx,
// connection errors and timeouts → route failure without auto-reduce; other 4xx → neutral;
// 2xx/3xx → success; an error inside a 200 stream is never a success; a client that left
// first is `abandoned` (neutral for both, and a probe claim goes back). A Gemini 429 waits
// as long as its google.rpc.RetryInfo says.
import type { IncomingHttpHeaders } from "node:http";
import type { LeaseOutcome, RouteOutcome } from "../../shared/types";
import { parseGoogleError } from "../../shared/google-rpc-error";
import { parseResetHeaders } from "../../shared/rate-limit-classifier";
import type { ForwardEnd } from "./forward";
import { errorInPayload, type StreamError } from "./stream-errors";

export interface Verdict {
  lease: LeaseOutcome;
  retryAfterMs?: number;
  /** "release" hands a probe claim back: the run said nothing about the route. */
  route: RouteOutcome | "release";
  reason?: string;
}

function statusVerdict(status: number, headers: IncomingHttpHeaders, now: number, body?: string): Verdict {
  if (status === 429) {
    const google = body === undefined ? undefined : parseGoogleError(body);
    const retryAfterMs = google?.retryDelayMs ?? parseResetHeaders(headers, now);
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

export function streamErrorVerdict(error: StreamError): Verdict {
  if (error.kind === "rate_limited") {
    return { lease: "rate_limited", ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }), route: "neutral" };
  }
  if (error.kind === "server") return { lease: "failure", route: "failure", reason: `upstream stream error ${error.type}` };
  // Neither the account's capacity nor the route's health, but not a success either.
  return { lease: "failure", route: "neutral" };
}

/** `errorBody`: the start of an error answer's body (read for Gemini's RetryInfo). */
export function verdictOf(end: ForwardEnd, now: number, streamError?: StreamError, errorBody?: string): Verdict {
  if (streamError && end.kind !== "upstream_error") return streamErrorVerdict(streamError);
  switch (end.kind) {
    case "completed":
      return statusVerdict(end.status, end.headers, now, errorBody);
    case "upstream_error":
      return { lease: "failure", route: "failure", reason: end.timedOut ? "timeout" : end.detail };
    case "client_gone": {
      // An error status already received stands; otherwise the client simply left, which
      // says nothing about the provider: abandoned, no success credited, probe claim back.
      if (end.status !== undefined && end.headers && (end.status === 429 || end.status >= 500)) {
        return statusVerdict(end.status, end.headers, now, errorBody);
      }
      return { lease: "abandoned", route: "release" };
    }
  }
}

/**
 * What a server WebSocket message says, or undefined when it is no error (SPEC §6
 * "WebSocket"): `{"type":"error","status":429,"headers":{…}}` counts as that status would;
 * an error without a status (a Responses `error` or `response.failed` event, a Google error)
 * as the same error inside a stream would.
 */
export function messageVerdict(text: string, now: number): Verdict | undefined {
  if (!text.includes('"error"') && !text.includes("response.failed")) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const data = message as Record<string, unknown>;
  if (data.type === "error" && typeof data.status === "number") {
    const headers: Record<string, string> = {};
    if (data.headers !== null && typeof data.headers === "object") {
      for (const [name, value] of Object.entries(data.headers)) if (typeof value === "string" || typeof value === "number") headers[name.toLowerCase()] = String(value);
    }
    const verdict = statusVerdict(data.status, headers, now, text);
    return verdict.lease === "success" ? undefined : verdict;
  }
  const error = errorInPayload(data, typeof data.type === "string" ? data.type : "");
  return error ? streamErrorVerdict(error) : undefined;
}
