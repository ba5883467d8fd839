// Which provider's usage object this is, and what it says in Headroom's terms (SPEC §9): input
// without cache reads, output with reasoning. Formats and their sources: docs/agents.md.
//   Anthropic   { input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens }
//               (message_start has all four; message_delta repeats output_tokens, cumulative)
//   OpenAI chat { prompt_tokens, completion_tokens, prompt_tokens_details: { cached_tokens } }
//   Responses   { input_tokens, output_tokens, input_tokens_details: { cached_tokens }, total_tokens }
//   Gemini      { promptTokenCount, candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount }
import type { TokenCounts } from "../../shared/agents";

export type TokenReading = Partial<TokenCounts>;

type Json = Record<string, unknown>;

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER) : undefined;
const objectAt = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;

/** Only the fields the object states: a later, partial object overwrites just those. */
function reading(fields: { [K in keyof TokenCounts]: number | undefined }): TokenReading {
  const out: TokenReading = {};
  for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const minus = (total: number | undefined, part: number | undefined) => (total === undefined ? undefined : Math.max(0, total - (part ?? 0)));

/** The reading of one usage object, or undefined when it is none of the four shapes. */
export function readUsage(value: unknown): TokenReading | undefined {
  const usage = objectAt(value);
  if (!usage) return undefined;
  if ("promptTokenCount" in usage || "candidatesTokenCount" in usage) {
    const cached = count(usage.cachedContentTokenCount);
    const candidates = count(usage.candidatesTokenCount);
    const thoughts = count(usage.thoughtsTokenCount);
    const output = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
    return reading({ input: minus(count(usage.promptTokenCount), cached), output, cacheRead: cached, cacheWrite: undefined });
  }
  if ("prompt_tokens" in usage || "completion_tokens" in usage) {
    const cached = count(objectAt(usage.prompt_tokens_details)?.cached_tokens);
    return reading({ input: minus(count(usage.prompt_tokens), cached), output: count(usage.completion_tokens), cacheRead: cached, cacheWrite: undefined });
  }
  if ("input_tokens_details" in usage || "output_tokens_details" in usage || "total_tokens" in usage) {
    const cached = count(objectAt(usage.input_tokens_details)?.cached_tokens);
    return reading({ input: minus(count(usage.input_tokens), cached), output: count(usage.output_tokens), cacheRead: cached, cacheWrite: undefined });
  }
  if ("input_tokens" in usage || "output_tokens" in usage || "cache_read_input_tokens" in usage) {
    return reading({
      input: count(usage.input_tokens),
      output: count(usage.output_tokens),
      cacheRead: count(usage.cache_read_input_tokens),
      cacheWrite: count(usage.cache_creation_input_tokens),
    });
  }
  return undefined;
}
