// Token usage read from a response as its bytes pass through the proxy (SPEC §9), without
// holding the stream: the tap looks for the key `"usage"` (or Gemini's `"usageMetadata"`) in
// the raw bytes and parses only the small object after it. A JSON string cannot hold an
// unescaped quote, so a match is always a real key, in an event stream, a JSON body or a
// stream of JSON array items alike. Later objects overwrite the fields they state: Anthropic's
// cumulative output_tokens and Gemini's per-chunk usageMetadata both end on the last value.
import type { TokenCounts } from "../../shared/agents";
import { readUsage, type TokenReading } from "./usage-shapes";

/** A usage object is a few hundred bytes; a longer one is no usage object we know, and is dropped. */
const MAX_OBJECT = 16 * 1024;
/** Whitespace allowed between the key and its `{` before the match is given up. */
const MAX_GAP = 64;
const KEY = Buffer.from('"usage');
const METADATA = Buffer.from('Metadata"');
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const BACKSLASH = 0x5c;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

interface Capture {
  parts: string[];
  size: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
}

export class UsageTap {
  private reading: TokenReading = {};
  private seen = false;
  /** Bytes at the end of the last chunk that may begin a key split across chunks. */
  private carry: Buffer | undefined;
  private capture: Capture | undefined;

  /** The usage read so far, or undefined when the response carried none. */
  get usage(): TokenCounts | undefined {
    if (!this.seen) return undefined;
    const { input = 0, output = 0, cacheRead = 0, cacheWrite = 0 } = this.reading;
    return { input, output, cacheRead, cacheWrite };
  }

  feed(chunk: Buffer): void {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    let at = this.capture ? this.captureFrom(bytes, 0) : 0;
    while (at !== -1 && at < bytes.length) {
      const hit = bytes.indexOf(KEY, at);
      if (hit === -1) {
        // A key may start in the last bytes; fewer than KEY.length of them can never match twice.
        const keep = Math.max(at, bytes.length - (KEY.length - 1));
        if (keep < bytes.length) this.carry = Buffer.from(bytes.subarray(keep));
        return;
      }
      const open = this.objectStart(bytes, hit + KEY.length);
      if (open === "more") {
        this.carry = Buffer.from(bytes.subarray(hit));
        return;
      }
      if (open === "none") {
        at = hit + 1;
        continue;
      }
      this.capture = { parts: [], size: 0, depth: 0, inString: false, escaped: false };
      at = this.captureFrom(bytes, open);
    }
  }

  /** Where the object after `"usage` or `"usageMetadata` begins; "more" when the chunk ends first. */
  private objectStart(bytes: Buffer, from: number): number | "none" | "more" {
    let i = from;
    if (i >= bytes.length) return "more";
    if (bytes[i] === METADATA[0]) {
      for (let j = 0; j < METADATA.length; j++, i++) {
        if (i >= bytes.length) return "more";
        if (bytes[i] !== METADATA[j]) return "none";
      }
    } else if (bytes[i] === QUOTE) i++;
    else return "none";
    let colon = false;
    for (const limit = i + MAX_GAP; i < bytes.length; i++) {
      if (i > limit) return "none";
      const byte = bytes[i]!;
      if (isSpace(byte)) continue;
      if (byte === COLON && !colon) colon = true;
      else return colon && byte === OPEN ? i : "none";
    }
    return "more";
  }

  /** Reads the captured object on from `from`; the index after it, or -1 when the chunk ended inside it. */
  private captureFrom(bytes: Buffer, from: number): number {
    const capture = this.capture!;
    for (let i = from; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (capture.inString) {
        if (capture.escaped) capture.escaped = false;
        else if (byte === BACKSLASH) capture.escaped = true;
        else if (byte === QUOTE) capture.inString = false;
      } else if (byte === QUOTE) capture.inString = true;
      else if (byte === OPEN) capture.depth++;
      else if (byte === CLOSE && --capture.depth === 0) {
        this.keep(capture, bytes, from, i + 1);
        this.capture = undefined;
        this.take(capture.parts.join(""));
        return i + 1;
      }
      if (capture.size + (i - from) > MAX_OBJECT) {
        this.capture = undefined; // not a usage object: searching resumes after it
        return i + 1;
      }
    }
    this.keep(capture, bytes, from, bytes.length);
    return -1;
  }

  private keep(capture: Capture, bytes: Buffer, from: number, to: number): void {
    capture.parts.push(bytes.toString("latin1", from, to));
    capture.size += to - from;
  }

  private take(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // malformed usage: the stream and every other count go on unharmed
    }
    const reading = readUsage(parsed);
    if (!reading) return;
    this.seen = true;
    this.reading = { ...this.reading, ...reading };
  }
}
