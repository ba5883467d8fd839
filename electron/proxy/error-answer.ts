// The start of a 429's body, kept as it passes through (it still streams to the client
// unchanged): Gemini says how long to wait in it (google.rpc.RetryInfo), not in a header.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** Error bodies are short; past this the rest is not kept (the wait then comes from headers). */
const MAX_KEPT = 64 * 1024;

export class ErrorAnswer {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly encoding: string | undefined) {}

  add(chunk: Buffer): void {
    if (this.size >= MAX_KEPT) return;
    const room = MAX_KEPT - this.size;
    this.chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    this.size += Math.min(chunk.length, room);
  }

  /** The body as text, decoded from its content-encoding; undefined when it cannot be. */
  text(): string | undefined {
    const raw = Buffer.concat(this.chunks, this.size);
    const options = { maxOutputLength: 4 * MAX_KEPT };
    try {
      switch (this.encoding?.trim().toLowerCase()) {
        case undefined:
        case "":
        case "identity":
          return raw.toString("utf8");
        case "gzip":
          return gunzipSync(raw, options).toString("utf8");
        case "deflate":
          return inflateSync(raw, options).toString("utf8");
        case "br":
          return brotliDecompressSync(raw, options).toString("utf8");
        default:
          return undefined;
      }
    } catch {
      return undefined; // cut short or not what it claims: the headers' wait stands
    }
  }
}
