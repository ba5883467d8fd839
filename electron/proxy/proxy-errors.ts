// Headroom's own answers on the proxy port, in the error format the calling SDK already
// parses (Anthropic's for /v1/messages, Google's on Gemini's paths, OpenAI's otherwise), so
// an agent shows a readable message and honours retry-after instead of crashing on an
// unknown body shape.
import type { ServerResponse } from "node:http";

export type ProxyErrorCode =
  | "forbidden_host"
  | "forbidden_origin"
  | "not_found"
  | "invalid_input"
  | "loop_detected"
  | "unknown_provider"
  | "no_upstream"
  | "payload_too_large"
  | "request_timeout"
  | "route_open"
  | "route_probing"
  | "usage_limit_reached"
  | "unavailable"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "internal";

export type ErrorFlavor = "anthropic" | "openai" | "google";

// Gemini's API: its beta version, or a model method (`models/<m>:<method>`, colon escaped or not).
const GOOGLE_PATH = /\/v1beta\/|\/models\/[^/?]*(:|%3a)/i;

/** From the canonical path (lower-cased, decoded), so every spelling of /v1/messages gets Anthropic's. */
export function flavorOf(gatingPath: string): ErrorFlavor {
  if (/^\/v1\/messages(\/|$)/.test(gatingPath)) return "anthropic";
  return GOOGLE_PATH.test(gatingPath) ? "google" : "openai";
}

/** A path refused before it had a canonical form: any spelling of "messages" gets Anthropic's, of Gemini's methods Google's. */
export function flavorOfRawUrl(rawUrl: string): ErrorFlavor {
  if (GOOGLE_PATH.test(rawUrl)) return "google";
  return /messages/i.test(rawUrl) ? "anthropic" : "openai";
}

// Anthropic's documented error types by status; 503 is "overloaded", which its SDKs retry.
const ANTHROPIC_TYPE: Record<number, string> = {
  400: "invalid_request_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  413: "request_too_large",
  429: "rate_limit_error",
  504: "timeout_error",
  503: "overloaded_error",
};

// google.rpc.Code names as Google's APIs pair them with HTTP statuses.
const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
  508: "FAILED_PRECONDITION",
};

export function errorBody(
  flavor: ErrorFlavor,
  status: number,
  code: ProxyErrorCode,
  message: string,
  retryAfterS?: number,
  extra: Record<string, unknown> = {},
): unknown {
  if (flavor === "google") {
    // A RetryInfo detail is what Google's clients (Gemini CLI among them) read for the wait.
    const retry = retryAfterS === undefined ? [] : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterS}s` }];
    const details = [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: code, domain: "headroom" }, ...retry];
    return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"), details } };
  }
  if (flavor === "anthropic") {
    return { type: "error", error: { type: ANTHROPIC_TYPE[status] ?? "api_error", message } };
  }
  // OpenAI names a 429's kind in `type` (Codex: `usage_limit_reached`); other errors by their side.
  const type = status === 429 ? code : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, param: null, code, ...extra } };
}

export interface ProxyError {
  status: number;
  code: ProxyErrorCode;
  /** Without the "Headroom: " prefix, which is added so a user knows who answered. */
  message: string;
  retryAfterS?: number;
  /** More fields of the OpenAI-format error object (e.g. `resets_at`). */
  extra?: Record<string, unknown>;
}

export function sendProxyError(res: ServerResponse, flavor: ErrorFlavor, error: ProxyError): void {
  if (writeProxyError(res, flavor, error)) res.end();
}

/** The whole answer, without ending the response (so the connection stays open); false if it cannot be sent. */
export function writeProxyError(res: ServerResponse, flavor: ErrorFlavor, error: ProxyError): boolean {
  if (res.headersSent || res.destroyed) return false;
  const text = JSON.stringify(errorBody(flavor, error.status, error.code, `Headroom: ${error.message}`, error.retryAfterS, error.extra));
  res.writeHead(error.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    // Lets tools and tests tell Headroom's refusals from the provider's own errors.
    "x-headroom-error": error.code,
    ...(error.retryAfterS === undefined ? {} : { "retry-after": String(error.retryAfterS) }),
  });
  res.write(text);
  return true;
}
