// What the proxy tells the service about plan windows (SPEC §8), read as an exchange passes:
// the answer's headers (at once, so a probe's success counts when its answer starts), a 429's
// small body (`usage_limit_reached`), and `codex.rate_limits` events inside an SSE stream or
// on a WebSocket. Never in the way: nothing is buffered beyond a 429's first 64 KiB, and
// nothing here can fail a request.
import type { IncomingHttpHeaders } from "node:http";
import { readCodexRateLimitsEvent, readUsageLimitRefusal, readWindowHeaders, type WindowReading } from "../engine/window-readings";
import type { HeadroomService } from "../service/headroom-service";
import type { ErrorFlavor, ProxyError } from "./proxy-errors";

const MAX_REFUSAL_BODY = 64 * 1024;

export class WindowObserver {
  private headers: WindowReading | undefined;
  private refusal: Buffer[] | undefined;
  private size = 0;

  constructor(
    private readonly service: HeadroomService,
    private readonly providerId: string,
  ) {}

  /** The answer's status line and headers arrived; a 429's verdict waits for its body. */
  head(status: number, headers: IncomingHttpHeaders): void {
    this.headers = readWindowHeaders(headers, this.service.clock.now());
    if (status === 429) this.refusal = [];
    else if (this.headers) this.service.noteWindows(this.providerId, this.headers);
  }

  chunk(chunk: Buffer): void {
    if (!this.refusal || this.size >= MAX_REFUSAL_BODY) return;
    this.refusal.push(chunk);
    this.size += chunk.length;
  }

  /** An in-band message (an SSE `data:` payload or a WebSocket message), already parsed. */
  event(data: unknown): void {
    const now = this.service.clock.now();
    const reading = readCodexRateLimitsEvent(data, now) ?? readUsageLimitRefusal(data, this.headers, now);
    if (reading) this.service.noteWindows(this.providerId, reading);
  }

  /** The answer ended: a 429 is told with what its body says, before its release. */
  end(): void {
    if (!this.refusal) return;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(this.refusal).toString("utf8"));
    } catch {
      body = undefined;
    }
    this.refusal = undefined;
    const reading = readUsageLimitRefusal(body, this.headers, this.service.clock.now()) ?? this.headers;
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
