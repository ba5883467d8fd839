// Token usage read from a response as its bytes pass through the proxy (SPEC §9), without
// holding the stream: the keyed-object tap picks out each `"usage"` (or Gemini's
// `"usageMetadata"`) object. Later objects overwrite the fields they state: Anthropic's
// cumulative output_tokens and Gemini's per-chunk usageMetadata both end on the last value.
import type { TokenCounts } from "../../shared/agents";
import { KeyedObjectTap } from "./keyed-objects";
import { readUsage, type TokenReading } from "./usage-shapes";

export class UsageTap {
  private reading: TokenReading = {};
  private seen = false;
  private readonly tap = new KeyedObjectTap(["usage", "usageMetadata"], (text) => this.take(text));

  /** The usage read so far, or undefined when the response carried none. */
  get usage(): TokenCounts | undefined {
    if (!this.seen) return undefined;
    const { input = 0, output = 0, cacheRead = 0, cacheWrite = 0 } = this.reading;
    return { input, output, cacheRead, cacheWrite };
  }

  feed(chunk: Buffer): void {
    this.tap.feed(chunk);
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
