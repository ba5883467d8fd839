// What the proxy tells the service about plan windows (SPEC §8), read as an exchange passes:
// the answer's headers (at once, so a probe's success counts when its answer starts), a 429's
// small body (Codex's `usage_limit_reached`, Gemini's per-day QuotaFailure), and in-band
// messages (`codex.rate_limits` in an SSE stream or on a WebSocket, and a refusal inside a stream).
// Never in the way: the 429's body is the start its caller kept (decoded), and nothing here
// can fail a request.
import type { IncomingHttpHeaders } from "node:http";
import {
  readCodexRateLimitsEvent,
  readGeminiDayRefusal,
  readUsageLimitRefusal,
  readWindowHeaders,
  type WindowReading,
} from "../engine/window-readings";
import type { HeadroomService } from "../service/headroom-service";
import type { ErrorFlavor, ProxyError } from "./proxy-errors";

export class WindowObserver {
  private headers: WindowReading | undefined;
  private refused = false;

  constructor(
    private readonly service: HeadroomService,
    private readonly providerId: string,
  ) {}

  /** The answer's status line and headers arrived; a 429's verdict waits for its body. */
  head(status: number, headers: IncomingHttpHeaders): void {
    this.headers = readWindowHeaders(headers, this.service.clock.now());
    this.refused = status === 429;
    if (!this.refused && this.headers) this.service.noteWindows(this.providerId, this.headers);
  }

  /** An in-band message (an SSE `data:` payload or a WebSocket message), already parsed. */
  event(data: unknown): void {
    const now = this.service.clock.now();
    const reading =
      readCodexRateLimitsEvent(data, now) ?? readUsageLimitRefusal(data, this.headers, now) ?? readGeminiDayRefusal(data, now);
    if (reading) this.service.noteWindows(this.providerId, reading);
  }

  /**
   * The answer ended: a 429 is told with what its body says, before its release, so the
   * release already finds the window pause and adds no 429 backoff. `text`: the start of the
   * body, decoded from its content-encoding (undefined when it could not be).
   */
  end(text: string | undefined): void {
    if (!this.refused) return;
    this.refused = false;
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const now = this.service.clock.now();
    const reading = readUsageLimitRefusal(body, this.headers, now) ?? readGeminiDayRefusal(body, now) ?? this.headers;
    if (reading) this.service.noteWindows(this.providerId, reading);
  }
}

/** A cheap look before parsing: only messages that can be a window reading are parsed. */
export function mayCarryWindows(text: string): boolean {
  return text.includes("codex.rate_limits") || text.includes("usage_limit_reached");
}

/** Headroom's own 429 while a used-up window pauses the provider, in the calling SDK's format. */
export function usedUpError(refusal: { retryAfterS: number; message: string }, flavor: ErrorFlavor, now: number): ProxyError {
  return {
    status: 429,
    code: "usage_limit_reached",
    message: refusal.message,
    retryAfterS: refusal.retryAfterS,
    // Codex reads these from its own refusals and says when to try again.
    ...(flavor === "openai" ? { extra: { resets_at: Math.ceil(now / 1000) + refusal.retryAfterS, resets_in_seconds: refusal.retryAfterS } } : {}),
  };
}
