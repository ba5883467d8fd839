// Google's error body (Gemini's API and every other Google API): `{ error: { code, message,
// status, details: [...] } }`, the details typed by `@type` (google.rpc.RetryInfo,
// google.rpc.QuotaFailure, …). SPEC §6 "Gemini": a 429's RetryInfo says how long to wait; a
// QuotaFailure names the quota that ran out (a per-day one is a plan window, SPEC §8). Pure:
// no I/O, parses defensively and ignores what does not parse.
import { parseUnitDuration } from "./duration";

interface QuotaViolation {
  quotaId?: string;
  quotaMetric?: string;
  quotaValue?: string;
  quotaDimensions?: Record<string, string>;
}

export interface GoogleError {
  /** The HTTP status Google gave, e.g. 429. */
  code?: number;
  /** The google.rpc.Code name, e.g. `RESOURCE_EXHAUSTED`. */
  status?: string;
  message?: string;
  /** From google.rpc.RetryInfo's `retryDelay` ("37s", "1.5s"), in ms. */
  retryDelayMs?: number;
  /** google.rpc.QuotaFailure's violations, when the error carries one. */
  quotaViolations?: QuotaViolation[];
}

type Json = Record<string, unknown>;
const objectAt = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
const textAt = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const detailType = (detail: Json) => textAt(detail["@type"])?.replace(/^.*\//, "");

function violationOf(value: unknown): QuotaViolation | undefined {
  const v = objectAt(value);
  if (!v) return undefined;
  const dims = objectAt(v.quotaDimensions);
  const quotaDimensions: Record<string, string> = {};
  for (const [name, dim] of Object.entries(dims ?? {})) if (typeof dim === "string") quotaDimensions[name] = dim;
  const out: QuotaViolation = {};
  for (const key of ["quotaId", "quotaMetric", "quotaValue"] as const) {
    const text = textAt(v[key]);
    if (text !== undefined) out[key] = text;
  }
  if (dims) out.quotaDimensions = quotaDimensions;
  return out;
}

/** The error inside an already parsed value (a body or a stream chunk), or undefined when it is not Google's shape. */
export function googleErrorOf(value: unknown): GoogleError | undefined {
  // A streamed answer without `alt=sse` is a JSON array whose last element may be the error.
  const root = Array.isArray(value) ? value.map(objectAt).find((item) => item?.error !== undefined) : objectAt(value);
  const error = objectAt(root?.error);
  if (!error) return undefined;
  const out: GoogleError = {};
  if (typeof error.code === "number") out.code = error.code;
  const status = textAt(error.status);
  if (status !== undefined && /^[A-Z_]+$/.test(status)) out.status = status;
  const message = textAt(error.message);
  if (message !== undefined) out.message = message;
  const details = Array.isArray(error.details) ? error.details.map(objectAt).filter((d): d is Json => d !== undefined) : [];
  for (const detail of details) {
    const type = detailType(detail);
    if (type === "google.rpc.RetryInfo") {
      // protobuf's Duration in JSON: seconds with an `s` ("37s", "1.5s").
      const raw = textAt(detail.retryDelay) ?? "";
      const delay = /^\d+(\.\d+)?s$/.test(raw.trim()) ? parseUnitDuration(raw) : undefined;
      if (delay !== undefined) out.retryDelayMs = delay;
    } else if (type === "google.rpc.QuotaFailure" && Array.isArray(detail.violations)) {
      out.quotaViolations = detail.violations.map(violationOf).filter((v): v is QuotaViolation => v !== undefined);
    }
  }
  // Google's own errors always carry a status name or a numeric code; anything else is not one.
  return out.status !== undefined || out.code !== undefined ? out : undefined;
}

/** The error in a body's text, or undefined when it is not JSON in Google's shape. */
export function parseGoogleError(text: string): GoogleError | undefined {
  try {
    return googleErrorOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** SPEC §6/§8: a quota counted per day (`…PerDay…`, `…Daily…`) is a plan window named `day`. */
export function isPerDayQuota(error: GoogleError): boolean {
  return (error.quotaViolations ?? []).some((v) => /PerDay|Daily/.test(v.quotaId ?? ""));
}
