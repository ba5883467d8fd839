// Small JSON objects picked out of a response by their key as its bytes pass (usage, SPEC §9;
// Google's in-band `error`, SPEC §6), without holding or parsing the stream: the tap looks for
// `"<key>"` in the raw bytes and keeps only the object after it. A JSON string cannot hold an
// unescaped quote, so a match is always a real key, whether the response is an event stream,
// one JSON body, a stream of JSON array items, or pretty-printed JSON split across lines.

/** The objects wanted are a few hundred bytes; a longer one is not one of them, and is dropped. */
const MAX_OBJECT = 16 * 1024;
/** Whitespace allowed between the key and its `{` before the match is given up. */
const MAX_GAP = 64;
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const BACKSLASH = 0x5c;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

interface Capture {
  parts: Buffer[];
  size: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
}

function commonPrefix(keys: readonly string[]): string {
  let prefix = keys[0] ?? "";
  for (const key of keys) while (!key.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

interface KeyPattern {
  lead: Buffer;
  tails: Buffer[];
}

// A tap is made per proxied answer, from one of two or three key lists: each is compiled once.
const patterns = new Map<string, KeyPattern>();

function patternOf(keys: readonly string[]): KeyPattern {
  const id = keys.join("\u0000");
  const known = patterns.get(id);
  if (known) return known;
  const prefix = commonPrefix(keys);
  if (prefix === "") throw new Error("KeyedObjectTap: the keys need a common first letter");
  const pattern = {
    lead: Buffer.from(`"${prefix}`),
    tails: keys.map((key) => Buffer.from(`${key.slice(prefix.length)}"`)).sort((a, b) => b.length - a.length),
  };
  patterns.set(id, pattern);
  return pattern;
}

export class KeyedObjectTap {
  /** `"` and the keys' common prefix: one search per chunk whatever the number of keys. */
  private readonly lead: Buffer;
  /** The rest of each key and its closing quote, longest first so `usageMetadata` beats `usage`. */
  private readonly tails: Buffer[];
  /** Bytes at the end of the last chunk that may begin a key split across chunks. */
  private carry: Buffer | undefined;
  private capture: Capture | undefined;

  /** `take` gets each object's text, unparsed; what it does with malformed JSON is its own affair. */
  constructor(
    keys: readonly string[],
    private readonly take: (objectText: string) => void,
  ) {
    ({ lead: this.lead, tails: this.tails } = patternOf(keys));
  }

  feed(chunk: Buffer): void {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    let at = this.capture ? this.captureFrom(bytes, 0) : 0;
    while (at !== -1 && at < bytes.length) {
      const hit = bytes.indexOf(this.lead, at);
      if (hit === -1) {
        // A key may start in the last bytes (fewer than lead.length of them can never match
        // twice), and only at a quote: a chunk not ending in one carries nothing over.
        const from = Math.max(at, bytes.length - (this.lead.length - 1));
        let quote = bytes.length - 1;
        while (quote >= from && bytes[quote] !== QUOTE) quote--;
        if (quote >= from) this.carry = Buffer.from(bytes.subarray(quote));
        return;
      }
      const open = this.objectStart(bytes, hit + this.lead.length);
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

  /** Where the object after one of the keys begins; "more" when the chunk ends first. */
  private objectStart(bytes: Buffer, from: number): number | "none" | "more" {
    let i = -1;
    for (const tail of this.tails) {
      const available = Math.min(tail.length, bytes.length - from);
      if (bytes.compare(tail, 0, available, from, from + available) !== 0) continue;
      if (available < tail.length) return "more";
      i = from + tail.length;
      break;
    }
    if (i === -1) return "none";
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
        this.capture = undefined;
        // Most objects lie within one chunk: decoded where they are, nothing copied.
        if (capture.parts.length === 0) this.take(bytes.toString("utf8", from, i + 1));
        else {
          this.keep(capture, bytes, from, i + 1);
          this.take(Buffer.concat(capture.parts).toString("utf8"));
        }
        return i + 1;
      }
      if (capture.size + (i - from) > MAX_OBJECT) {
        this.capture = undefined; // not an object we want: searching resumes after it
        return i + 1;
      }
    }
    this.keep(capture, bytes, from, bytes.length);
    return -1;
  }

  private keep(capture: Capture, bytes: Buffer, from: number, to: number): void {
    // A copy: the chunk's memory belongs to the stream, and a split character joins up whole.
    capture.parts.push(Buffer.from(bytes.subarray(from, to)));
    capture.size += to - from;
  }
}
