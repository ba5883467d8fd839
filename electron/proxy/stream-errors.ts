// Errors a provider reports inside a 200 event stream (SPEC §6): Anthropic's `event: error`,
// OpenAI chat/completions chunks carrying `error`, the Responses API's `event: error` and
// `response.failed`, and Gemini chunks carrying Google's `error` (with its RetryInfo wait).
// The scanner reads the stream line by line as it passes, keeping only the unfinished line
// (capped), so it never holds the stream and splits across chunks cost nothing. Google also
// sends its error outside any `data:` line: as an element of the JSON array a stream without
// `alt=sse` is, or pretty-printed across lines into an event stream; for Gemini a keyed-object
// tap picks the `"error"` object out of the bytes wherever it sits.
import { googleErrorOf } from "../../shared/google-rpc-error";
import { KeyedObjectTap } from "./keyed-objects";

type StreamErrorKind = "rate_limited" | "server" | "other";

export interface StreamError {
  kind: StreamErrorKind;
  /** The provider's own type or code, e.g. `overloaded_error`, `rate_limit_exceeded`, `RESOURCE_EXHAUSTED`. */
  type: string;
  /** The wait the error itself names (Gemini's RetryInfo `retryDelay`). */
  retryAfterMs?: number;
}

/** Error lines are short; a longer unfinished line is a content delta and is skipped, not kept. */
const MAX_LINE = 64 * 1024;
const RATE_LIMIT_TYPES = new Set(["rate_limit_error", "rate_limit_exceeded", "rate_limited"]);
const SERVER_TYPE = /overloaded|server|internal|unavailable|timeout|deadline|api_error/i;

function classifyStreamError(type: string): StreamErrorKind {
  if (RATE_LIMIT_TYPES.has(type)) return "rate_limited";
  return SERVER_TYPE.test(type) ? "server" : "other";
}

type Json = Record<string, unknown>;
const objectAt = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
const textAt = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The error's type and code from any of the three providers' shapes; [] when the data is no error. */
function errorNames(data: Json, event: string): string[] {
  const nested = objectAt(data.error) ?? objectAt(objectAt(data.response)?.error);
  const names = (from: Json) => [textAt(from.type), textAt(from.code)].filter((name): name is string => name !== undefined);
  if (nested) return [...names(nested), "error"];
  if (event === "error" || data.type === "error") return [textAt(data.code) ?? "error"];
  if (event === "response.failed" || data.type === "response.failed") return ["response.failed"];
  return [];
}

/** Google's shape: a numeric HTTP `code` and a google.rpc `status` name. */
function googleStreamError(data: Json): StreamError | undefined {
  const google = googleErrorOf(data);
  if (!google) return undefined;
  const code = google.code ?? 0;
  const type = google.status ?? `code ${code}`;
  const kind: StreamErrorKind =
    code === 429 || google.status === "RESOURCE_EXHAUSTED" ? "rate_limited" : code >= 500 || SERVER_TYPE.test(google.status ?? "") ? "server" : "other";
  return { kind, type, ...(google.retryDelayMs === undefined ? {} : { retryAfterMs: google.retryDelayMs }) };
}

/** The error a stream event or a WebSocket message carries, in any of the providers' shapes. */
export function errorInPayload(data: Json, event: string): StreamError | undefined {
  return googleStreamError(data) ?? classify(errorNames(data, event));
}

/** OpenAI puts the kind in `code` and a family in `type` (`requests`): the most telling name wins. */
function classify(names: string[]): StreamError | undefined {
  if (names.length === 0) return undefined;
  for (const kind of ["rate_limited", "server"] as const) {
    const type = names.find((name) => classifyStreamError(name) === kind);
    if (type !== undefined) return { kind, type };
  }
  return { kind: "other", type: names[0]! };
}

/** How the answer frames its events: lines of an event stream, or JSON (Google's array stream). */
export type Framing = "sse" | "json";

export class StreamErrorScanner {
  private partial = "";
  private skipping = false;
  private event = "";
  private found: StreamError | undefined;
  private readonly google: KeyedObjectTap | undefined;

  /**
   * `windows` hears every `codex.rate_limits` event of the stream and every error, before the
   * error is counted (SPEC §8: an error may be a window's refusal, e.g. Gemini's per-day quota).
   * `google` looks for Google's error object outside the event lines too.
   */
  constructor(
    private readonly windows?: (data: unknown) => void,
    options: { google?: boolean } = {},
  ) {
    this.google = options.google ? new KeyedObjectTap(["error"], (text) => this.googleObject(text)) : undefined;
  }

  /** The first error seen, if any. */
  get error(): StreamError | undefined {
    return this.found;
  }

  feed(chunk: Buffer, framing: Framing = "sse"): void {
    if (this.found) return;
    this.google?.feed(chunk);
    if (this.found || framing !== "sse") return;
    const text = chunk.toString("latin1"); // byte-for-byte: JSON keys and types are ASCII
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        this.partial = "";
        continue;
      }
      this.line((this.partial + piece).replace(/\r$/, ""));
      this.partial = "";
      if (this.found) return;
    }
    if (this.skipping) return;
    this.partial += text.slice(start);
    if (this.partial.length > MAX_LINE) {
      this.partial = "";
      this.skipping = true;
    }
  }

  private line(line: string): void {
    if (line === "") {
      this.event = "";
      return;
    }
    if (line.startsWith("event:")) {
      this.event = line.slice(6).trim();
      return;
    }
    if (!line.startsWith("data:")) return;
    const payload = line.slice(5).trim();
    if (this.windows && payload.includes('"codex.rate_limits"')) return this.rateLimits(payload);
    // Most lines are content deltas: parse only what can be an error.
    if (this.event !== "error" && this.event !== "response.failed" && !payload.includes('"error"') && !payload.includes("response.failed")) return;
    let data: Json | undefined;
    try {
      data = objectAt(JSON.parse(payload));
    } catch {
      return;
    }
    const found = data && errorInPayload(data, this.event);
    if (data && found) this.settle(data, found);
  }

  /** An `"error"` object from anywhere in a Gemini answer; Google's shape has a numeric code. */
  private googleObject(text: string): void {
    if (this.found) return;
    let error: unknown;
    try {
      error = JSON.parse(text);
    } catch {
      return;
    }
    const shape = objectAt(error);
    // Google always states both; a tool call's argument named `error` hardly does.
    if (typeof shape?.code !== "number" || typeof shape.status !== "string") return;
    const data = { error };
    const found = googleStreamError(data);
    if (found) this.settle(data, found);
  }

  private settle(data: Json, found: StreamError): void {
    this.windows?.(data);
    this.found = found;
  }

  private rateLimits(payload: string): void {
    try {
      this.windows?.(JSON.parse(payload));
    } catch {
      // Not JSON after all: a content delta that quotes the name.
    }
  }
}
