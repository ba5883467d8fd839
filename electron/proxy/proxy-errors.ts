// Headroom's own answers on the proxy port, in the error format the calling SDK already
// parses (Anthropic's for /v1/messages, OpenAI's otherwise), so an agent shows a readable
// message and honours retry-after instead of crashing on an unknown body shape.
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
  | "route_open"
  | "route_probing"
  | "usage_limit_reached"
  | "unavailable"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "internal";

export type ErrorFlavor = "anthropic" | "openai";

/** From the canonical path (lower-cased, decoded), so every spelling of /v1/messages gets Anthropic's. */
export function flavorOf(gatingPath: string | undefined): ErrorFlavor {
  return gatingPath !== undefined && /^\/v1\/messages(\/|$)/.test(gatingPath) ? "anthropic" : "openai";
}

// Anthropic's documented error types by status; 503 is "overloaded", which its SDKs retry.
const ANTHROPIC_TYPE: Record<number, string> = {
  400: "invalid_request_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  504: "timeout_error",
  503: "overloaded_error",
};

export function errorBody(
  flavor: ErrorFlavor,
  status: number,
  code: ProxyErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
): unknown {
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
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(errorBody(flavor, error.status, error.code, `Headroom: ${error.message}`, error.extra));
  res.writeHead(error.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    // Lets tools and tests tell Headroom's refusals from the provider's own errors.
    "x-headroom-error": error.code,
    ...(error.retryAfterS === undefined ? {} : { "retry-after": String(error.retryAfterS) }),
  });
  res.end(text);
}
