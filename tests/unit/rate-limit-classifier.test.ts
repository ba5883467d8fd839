import { describe, expect, test } from "vitest";
import {
  findRetryAfterInText,
  isRateLimitMarker,
  parseResetHeaders,
  parseRetryAfter,
} from "../../shared/rate-limit-classifier";

const NOW = Date.UTC(2026, 9, 21, 7, 27, 0); // Wed, 21 Oct 2026 07:27:00 GMT

describe("isRateLimitMarker", () => {
  test.each([
    "Error: 429 Too Many Requests",
    "HTTP/1.1 429",
    "status=429,",
    "anthropic.RateLimitError: Error code: 429 - {...}",
    "(429)",
    "HTTP_429",
    "got a 429.",
    "rate limit exceeded",
    "Rate Limit reached for gpt-4o",
    "{'type': 'rate_limit_error'}",
    "code: rate_limit_exceeded",
    "you are being rate-limited",
    "TOO MANY REQUESTS",
    "too_many_requests",
  ])("is a marker: %s", (text) => {
    expect(isRateLimitMarker(text)).toBe(true);
  });

  test.each([
    "retry-after: 30",
    "Retry-After: Wed, 21 Oct 2026 07:28:00 GMT",
    "listening on :4290",
    "14290 tokens",
    "commit a429f3c",
    "0x429",
    "version 1.429",
    "took 429.5 ms",
    "429ms",
    "an accurate limit on output",
    "separate limits per model",
    "x-ratelimit-remaining-requests: 10",
    "too many files open",
    "",
  ])("is not a marker: %s", (text) => {
    expect(isRateLimitMarker(text)).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  test("reads delta-seconds, including decimals rounded up to whole ms", () => {
    expect(parseRetryAfter("12", NOW)).toBe(12_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1_500);
    expect(parseRetryAfter("0.0001", NOW)).toBe(1);
  });

  test("does not cap long waits (callers cap)", () => {
    expect(parseRetryAfter("86400", NOW)).toBe(86_400_000);
  });

  test("reads the three HTTP-date forms as UTC", () => {
    expect(parseRetryAfter("Wed, 21 Oct 2026 07:28:00 GMT", NOW)).toBe(60_000);
    expect(parseRetryAfter("Wednesday, 21-Oct-26 07:28:00 GMT", NOW)).toBe(60_000);
    expect(parseRetryAfter("Wed Oct 21 07:28:00 2026", NOW)).toBe(60_000);
    expect(parseRetryAfter("Sun Nov  1 07:27:00 2026", NOW)).toBe(11 * 86_400_000);
  });

  test("a date in the past means now", () => {
    expect(parseRetryAfter("Tue, 20 Oct 2026 07:28:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).toBe(0);
  });

  test.each([
    null,
    undefined,
    "",
    "-5",
    "+5",
    "1e3",
    "soon",
    "12 seconds",
    "Infinity",
    "Wed, 31 Feb 2026 07:28:00 GMT",
    "Wed, 21 Oct 2026 25:00:00 GMT",
    "2026-10-21T07:28:00Z",
    "Wed, 21 Oct 2026 07:28:00 PST",
  ])("rejects %s", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe("findRetryAfterInText", () => {
  test("reads header-like lines from agent output", () => {
    expect(findRetryAfterInText("HTTP 429\nretry-after: 12\n", NOW)).toBe(12_000);
    expect(findRetryAfterInText("Retry-After: Wed, 21 Oct 2026 07:28:00 GMT\n", NOW)).toBe(60_000);
    expect(findRetryAfterInText("headers: {'retry-after': '7', 'x': 'y'}", NOW)).toBe(7_000);
    expect(findRetryAfterInText('{"retry_after": 1.5}', NOW)).toBe(1_500);
    expect(findRetryAfterInText("RETRY-AFTER=3.", NOW)).toBe(3_000);
  });

  test("retry-after-ms is milliseconds, not seconds", () => {
    expect(findRetryAfterInText("retry-after-ms: 250", NOW)).toBe(250);
  });

  test("the last value wins", () => {
    expect(findRetryAfterInText("retry-after: 30\n...\nretry-after: 5\n", NOW)).toBe(5_000);
    expect(findRetryAfterInText("retry-after: 5\nretry-after: garbage\n", NOW)).toBe(5_000);
  });

  test.each([
    "please retry after 10 seconds",
    "retry-after: soon",
    "retry-after: -3",
    "retry-after: 12abc",
    "no header here",
  ])("finds nothing in %s", (text) => {
    expect(findRetryAfterInText(text, NOW)).toBeUndefined();
  });
});

describe("parseResetHeaders", () => {
  test("retry-after wins over provider headers, in any header case", () => {
    expect(parseResetHeaders({ "Retry-After": "3", "x-ratelimit-reset-requests": "20s" }, NOW)).toBe(3_000);
    expect(parseResetHeaders({ "retry-after": ["4", "9"] }, NOW)).toBe(4_000);
  });

  test("an unreadable retry-after falls back to retry-after-ms, then the resets", () => {
    expect(parseResetHeaders({ "retry-after": "soon", "retry-after-ms": "1500" }, NOW)).toBe(1_500);
    expect(parseResetHeaders({ "retry-after": "soon", "x-ratelimit-reset-tokens": "2s" }, NOW)).toBe(2_000);
  });

  test("reads Anthropic's RFC 3339 resets", () => {
    expect(parseResetHeaders({ "anthropic-ratelimit-requests-reset": "2026-10-21T07:27:30Z" }, NOW)).toBe(30_000);
    expect(parseResetHeaders({ "anthropic-ratelimit-tokens-reset": "2026-10-21T09:27:01.25+02:00" }, NOW)).toBe(1_250);
    expect(parseResetHeaders({ "anthropic-ratelimit-input-tokens-reset": "2026-10-21T07:26:00Z" }, NOW)).toBe(0);
    expect(parseResetHeaders({ "anthropic-ratelimit-output-tokens-reset": "2026-10-21T07:27:05Z" }, NOW)).toBe(5_000);
  });

  test("reads OpenAI's durations", () => {
    const reset = (v: string) => parseResetHeaders({ "x-ratelimit-reset-requests": v }, NOW);
    expect(reset("1s")).toBe(1_000);
    expect(reset("6m0s")).toBe(360_000);
    expect(reset("250ms")).toBe(250);
    expect(reset("1h2m3.5s")).toBe(3_723_500);
    expect(reset("17.5ms")).toBe(18);
  });

  test("takes the latest reset, preferring the buckets that ran out", () => {
    const headers = {
      "anthropic-ratelimit-requests-reset": "2026-10-21T07:27:02Z",
      "anthropic-ratelimit-tokens-reset": "2026-10-21T07:28:00Z",
    };
    expect(parseResetHeaders(headers, NOW)).toBe(60_000);
    expect(parseResetHeaders({ ...headers, "anthropic-ratelimit-requests-remaining": "0" }, NOW)).toBe(2_000);
    const openai = {
      "x-ratelimit-reset-requests": "1s",
      "x-ratelimit-reset-tokens": "6m0s",
      "x-ratelimit-remaining-requests": "0",
    };
    expect(parseResetHeaders(openai, NOW)).toBe(1_000);
  });

  test.each([
    [{}],
    [{ "retry-after": "-1" }],
    [{ "x-ratelimit-reset-requests": "30" }],
    [{ "x-ratelimit-reset-requests": "-1s" }],
    [{ "x-ratelimit-reset-requests": "1d" }],
    [{ "anthropic-ratelimit-requests-reset": "2026-02-31T00:00:00Z" }],
    [{ "anthropic-ratelimit-requests-reset": "tomorrow" }],
    [{ "x-ratelimit-reset-requests": undefined }],
  ])("garbage gives undefined: %j", (headers) => {
    expect(parseResetHeaders(headers, NOW)).toBeUndefined();
  });
});
