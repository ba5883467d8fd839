// The provider's own account of its headroom (SPEC §6 "Upstream rate-limit headers"):
// Anthropic's anthropic-ratelimit-<bucket>-{limit,remaining,reset} (resets in RFC 3339) and
// OpenAI's x-ratelimit-{limit,remaining,reset}-<bucket> (resets as `1s`, `6m0s`, `20ms`).
// Pure: `now` turns relative resets into epoch ms.
import type { UpstreamBucket, UpstreamLimits } from "../../shared/types";
import { parseUnitDuration } from "../../shared/duration";
import { parseRfc3339 } from "../../shared/rate-limit-classifier";

export type ResponseHeaders = Record<string, string | string[] | undefined>;
type BucketName = "requests" | "tokens" | "inputTokens" | "outputTokens";

interface BucketHeaders {
  bucket: BucketName;
  limit: string;
  remaining: string;
  reset: string;
  resetAt: (value: string, now: number) => number | undefined;
}

const ANTHROPIC_BUCKETS: [BucketName, string][] = [
  ["requests", "requests"],
  ["tokens", "tokens"],
  ["inputTokens", "input-tokens"],
  ["outputTokens", "output-tokens"],
];

const SOURCES: BucketHeaders[] = [
  ...ANTHROPIC_BUCKETS.map(([bucket, name]) => ({
    bucket,
    limit: `anthropic-ratelimit-${name}-limit`,
    remaining: `anthropic-ratelimit-${name}-remaining`,
    reset: `anthropic-ratelimit-${name}-reset`,
    resetAt: (value: string) => parseRfc3339(value),
  })),
  ...(["requests", "tokens"] as const).map((bucket) => ({
    bucket,
    limit: `x-ratelimit-limit-${bucket}`,
    remaining: `x-ratelimit-remaining-${bucket}`,
    reset: `x-ratelimit-reset-${bucket}`,
    resetAt: (value: string, now: number) => {
      const ms = parseUnitDuration(value);
      return ms === undefined ? undefined : now + ms;
    },
  })),
];

function count(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** The reading in a response's headers (names in lower case, as Node gives them), or undefined when none. */
export function parseUpstreamLimits(headers: ResponseHeaders, now: number): UpstreamLimits | undefined {
  const first = (name: string): string | undefined => {
    const raw = headers[name];
    return Array.isArray(raw) ? raw[0] : raw;
  };
  const reading: UpstreamLimits = { seenAt: now };
  let any = false;
  for (const source of SOURCES) {
    const limit = count(first(source.limit));
    const remaining = count(first(source.remaining));
    const resetText = first(source.reset);
    const resetAt = resetText === undefined ? undefined : source.resetAt(resetText, now);
    if (limit === undefined && remaining === undefined && resetAt === undefined) continue;
    const bucket: UpstreamBucket = {
      ...(limit === undefined ? {} : { limit }),
      ...(remaining === undefined ? {} : { remaining }),
      ...(resetAt === undefined ? {} : { resetAt }),
    };
    reading[source.bucket] = bucket;
    any = true;
  }
  return any ? reading : undefined;
}
