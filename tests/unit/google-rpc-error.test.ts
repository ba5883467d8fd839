// Google's error body (SPEC §6 "Gemini"): the RetryInfo wait and the QuotaFailure, read defensively.
import { expect, test } from "vitest";
import { isPerDayQuota, parseGoogleError } from "../../shared/google-rpc-error";

// As Gemini's API answers a free tier's daily quota (trimmed).
const daily = JSON.stringify({
  error: {
    code: 429,
    message: "You exceeded your current quota",
    status: "RESOURCE_EXHAUSTED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          {
            quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
            quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
            quotaDimensions: { location: "global", model: "gemini-2.5-pro" },
            quotaValue: "50",
          },
        ],
      },
      { "@type": "type.googleapis.com/google.rpc.Help", links: [{ description: "Learn more", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }] },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" },
    ],
  },
});

test("a daily quota's 429: its wait from RetryInfo, its violation from QuotaFailure, read as per day", () => {
  const error = parseGoogleError(daily)!;
  expect(error).toEqual({
    code: 429,
    status: "RESOURCE_EXHAUSTED",
    message: "You exceeded your current quota",
    retryDelayMs: 37_000,
    quotaViolations: [
      {
        quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
        quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
        quotaDimensions: { location: "global", model: "gemini-2.5-pro" },
        quotaValue: "50",
      },
    ],
  });
  expect(isPerDayQuota(error)).toBe(true);
});

test("a per-minute quota is not per day; fractional and odd retry delays", () => {
  const perMinute = (retryDelay: unknown) =>
    JSON.stringify({
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        details: [
          { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerMinutePerProjectPerModel" }] },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
        ],
      },
    });
  expect(isPerDayQuota(parseGoogleError(perMinute("1.5s"))!)).toBe(false);
  expect(parseGoogleError(perMinute("1.5s"))?.retryDelayMs).toBe(1500);
  for (const odd of ["37", "-3s", "1m", 37, null]) expect(parseGoogleError(perMinute(odd))?.retryDelayMs, String(odd)).toBeUndefined();
});

test("what is not Google's error shape is not read as one", () => {
  for (const text of ["", "not json", "[]", '{"error":"x"}', '{"error":{"message":"only a message"}}', '{"type":"error","error":{"type":"rate_limit_error"}}']) {
    expect(parseGoogleError(text), text).toBeUndefined();
  }
  // A stream without alt=sse is a JSON array; its error element counts.
  expect(parseGoogleError('[{"candidates":[]},{"error":{"code":503,"status":"UNAVAILABLE"}}]')).toEqual({ code: 503, status: "UNAVAILABLE" });
});
