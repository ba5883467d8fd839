// The values every schema is built of (ids, URLs, ranges), each with the words a refusal uses
// (`allowed`): the records (shared/provider-settings.ts, shared/schemas.ts) are made of these.
import { FormatRegistry, Type, type Static, type TSchema } from "@sinclair/typebox";
import { LIMITS } from "./limits";
import "./check";
import { CONTROL_RANGES, INVISIBLE_RANGES } from "./tame";

/**
 * SPEC §3: no control character (C0, DEL, C1) reaches the CLI or a log through an id or a
 * reason; nor a bidi control or zero-width character, which would make one name read as another.
 */
const NO_CONTROLS = `[^${CONTROL_RANGES}${INVISIBLE_RANGES}]`;

export const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** http(s) without credentials, as the URL parser reads it: the proxy forwards to exactly this. */
export function isHttpUrl(value: string): boolean {
  if (value.length > 2048 || !/^https?:\/\//i.test(value.trimStart())) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Stored as the URL parser spells it ("HTTP://X/" → "http://x"), so the file and the API agree. */
export const canonicalUrl = (value: string): string => new URL(value).href.replace(/\/+$/, "");

export const HTTP_URL_FORMAT = "http-url";
FormatRegistry.Set(HTTP_URL_FORMAT, isHttpUrl);

/** The same schema with a `default`, which Value.Default fills in when the field is absent. */
export const defaulted = <S extends TSchema>(schema: S, value: unknown): S & { default: unknown } => ({ ...schema, default: value });

/** Keys of an object schema's properties that carry a `default`: present once defaults are filled. */
export type DefaultedKeys<P> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];

export const integer = (range: { min: number; max: number }) =>
  Type.Integer({ minimum: range.min, maximum: range.max, allowed: `an integer from ${range.min} to ${range.max}` });

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { allowed: `one of ${values.join(", ")}` },
  );

const text = (max: number) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: `^(?=[\\s\\S]*\\S)${NO_CONTROLS}*$`,
    allowed: `a non-empty string of at most ${max} characters without control characters (bidi controls and zero-width ones included)`,
  });

// ── ids and values ──────────────────────────────────────────────────────────

export const ProviderId = Type.String({
  pattern: PROVIDER_ID_PATTERN.source,
  allowed: "1 to 64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit",
});
/** Lease and waiter ids: client-visible tokens, never `.` or `..` (they would be path segments). */
export const TokenId = Type.String({
  pattern: "^(?!\\.{1,2}$)[A-Za-z0-9._:-]{1,128}$",
  allowed: "1 to 128 letters, digits or . _ : - (not . or ..)",
});
export const AgentId = text(200);
export const RouteIdPart = text(200);
export const Reason = text(500);
export const HttpUrl = Type.String({ format: HTTP_URL_FORMAT, maxLength: 2048, allowed: "an http:// or https:// URL without credentials" });
export const Limit = integer(LIMITS.limit);
export const CooldownMs = integer(LIMITS.cooldownMs);
export const PollMs = integer(LIMITS.pollMs);
export const Threshold = integer(LIMITS.threshold);
export const BreakerCooldownMs = integer(LIMITS.breakerCooldownMs);
export const Timestamp = Type.Number({ minimum: 0, allowed: "a time in epoch milliseconds" });
export const Flag = Type.Boolean({ allowed: "true or false" });

const LEASE_OUTCOMES = ["success", "failure", "rate_limited", "abandoned"] as const;
const ROUTE_OUTCOMES = ["success", "failure", "neutral"] as const;
export const LeaseOutcome = oneOf(LEASE_OUTCOMES);
export const RouteOutcome = oneOf(ROUTE_OUTCOMES);
export type LeaseOutcome = Static<typeof LeaseOutcome>;
export type RouteOutcome = Static<typeof RouteOutcome>;

/**
 * Every object of an input is closed (SPEC §3): a field it does not name, at any depth, is
 * refused by name (shared/check.ts), so a typo such as `responseTimeoutMS` never passes silently.
 * Files on disk are read leniently all the same: their readers drop unknown keys first
 * (`Value.Clean`), so an older or newer Headroom's file is never refused for a key.
 */
export const object = <P extends Parameters<typeof Type.Object>[0]>(properties: P, allowed = "a JSON object") =>
  Type.Object(properties, { allowed, additionalProperties: false });

export const HeaderMap = Type.Record(
  Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
  Type.String({ pattern: "^[^\\r\\n]*$", allowed: "a single-line string" }),
  { additionalProperties: false, allowed: "a map of header names to single-line strings" },
);

export const RouteKey = object({ targetId: RouteIdPart, runtimeId: RouteIdPart, modelId: RouteIdPart });
export type RouteKey = Static<typeof RouteKey>;

/** `null` in a patch clears the field; absent leaves it alone. */
export const orNull = <S extends TSchema>(schema: S, allowed: string) => Type.Union([schema, Type.Null()], { allowed });
