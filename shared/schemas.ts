// Every input of SPEC §1–3 and every persisted setting, each written once with TypeBox: one
// definition is the static type, the runtime check (shared/check.ts) and the JSON Schema that
// conf and electron-store validate the settings file with.
import { FormatRegistry, Type, type Static, type TSchema } from "@sinclair/typebox";
import { LIMITS } from "./limits";
import "./check";

/** SPEC §3: no control character (C0, DEL, C1) reaches the CLI or a log through an id or a reason. */
const NO_CONTROLS = "[^\\u0000-\\u001F\\u007F-\\u009F]";

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
const defaulted = <S extends TSchema>(schema: S, value: unknown): S => ({ ...schema, default: value });

const integer = (range: { min: number; max: number }) =>
  Type.Integer({ minimum: range.min, maximum: range.max, allowed: `an integer from ${range.min} to ${range.max}` });

const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { allowed: `one of ${values.join(", ")}` },
  );

const text = (max: number) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: `^(?=[\\s\\S]*\\S)${NO_CONTROLS}*$`,
    allowed: `a non-empty string of at most ${max} characters without control characters`,
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
export const ResponseTimeoutMs = integer(LIMITS.responseTimeoutMs);
export const PollMs = integer(LIMITS.pollMs);
export const HoldNewAtPercent = integer(LIMITS.holdNewAtPercent);
export const Threshold = integer(LIMITS.threshold);
export const BreakerCooldownMs = integer(LIMITS.breakerCooldownMs);
const Timestamp = Type.Number({ minimum: 0, allowed: "a time in epoch milliseconds" });
const Flag = Type.Boolean({ allowed: "true or false" });

export const LEASE_OUTCOMES = ["success", "failure", "rate_limited", "abandoned"] as const;
export const ROUTE_OUTCOMES = ["success", "failure", "neutral"] as const;
export const LeaseOutcome = oneOf(LEASE_OUTCOMES);
export const RouteOutcome = oneOf(ROUTE_OUTCOMES);
export type LeaseOutcome = Static<typeof LeaseOutcome>;
export type RouteOutcome = Static<typeof RouteOutcome>;

const object = <P extends Parameters<typeof Type.Object>[0]>(properties: P, allowed = "a JSON object") =>
  Type.Object(properties, { allowed });

export const HeaderMap = Type.Record(
  Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
  Type.String({ pattern: "^[^\\r\\n]*$", allowed: "a single-line string" }),
  { additionalProperties: false, allowed: "a map of header names to single-line strings" },
);

export const UsageGateConfig = object({
  url: HttpUrl,
  pollMs: PollMs,
  headers: Type.Optional(HeaderMap),
});
export type UsageGateConfig = Static<typeof UsageGateConfig>;

export const RouteKey = object({ targetId: RouteIdPart, runtimeId: RouteIdPart, modelId: RouteIdPart });
export type RouteKey = Static<typeof RouteKey>;

// ── path parameters ─────────────────────────────────────────────────────────

export const ProviderParams = object({ providerId: ProviderId });
export const LeaseParams = object({ leaseId: TokenId });

// ── query parameters ────────────────────────────────────────────────────────

export const SeriesQuery = object({ minutes: Type.Optional(integer(LIMITS.seriesMinutes)) });

// ── request bodies ──────────────────────────────────────────────────────────

export const LimitBody = object({ limit: Limit });
export const CooldownBody = object({ cooldownMs: CooldownMs });

const orNull = <S extends TSchema>(schema: S, allowed: string) => Type.Union([schema, Type.Null()], { allowed });

/** `null` clears a field; absent leaves it alone. */
export const ProviderConfigPatch = object({
  upstream: Type.Optional(orNull(HttpUrl, "an http:// or https:// URL without credentials, or null")),
  usageGate: Type.Optional(
    orNull(
      object({ url: HttpUrl, pollMs: Type.Optional(PollMs), headers: Type.Optional(HeaderMap) }),
      "an object { url, pollMs?, headers? } or null",
    ),
  ),
  responseTimeoutMs: Type.Optional(ResponseTimeoutMs),
  shared: Type.Optional(Flag),
  holdNewAtPercent: Type.Optional(orNull(HoldNewAtPercent, "an integer from 1 to 100, or null (no hold)")),
});
export type ProviderConfigPatch = Static<typeof ProviderConfigPatch>;

export const AcquireBody = object({
  providerId: ProviderId,
  agentId: Type.Optional(AgentId),
  waiterId: Type.Optional(TokenId),
  timeoutMs: Type.Optional(integer({ min: 0, max: LIMITS.timeoutMs.max })),
  ttlMs: Type.Optional(integer(LIMITS.leaseTtlMs)),
});
export type AcquireRequest = Static<typeof AcquireBody>;

export const ReleaseBody = object({
  outcome: LeaseOutcome,
  retryAfterMs: Type.Optional(integer({ min: 0, max: LIMITS.retryAfterMs.max })),
});

export const RouteRunBody = object({ ...RouteKey.properties, runId: RouteIdPart });
export const RouteOutcomeBody = object({
  ...RouteKey.properties,
  runId: RouteIdPart,
  outcome: RouteOutcome,
  reason: Type.Optional(Reason),
});

export const BreakerSettings = object({ threshold: Threshold, cooldownMs: BreakerCooldownMs });
export type BreakerSettings = Static<typeof BreakerSettings>;
export const BreakerSettingsPatch = Type.Partial(BreakerSettings, {
  minProperties: 1,
  allowed: "an object that sets threshold, cooldownMs or both",
});

// ── the settings file (SPEC §5) ─────────────────────────────────────────────
// Defaults are filled at open (Value.Default), so a hand-written provider `{ "limit": 4 }` is
// meant, not corrupt. Unknown keys are dropped at open (Value.Clean), not treated as corruption.

export const HeldLease = object({
  leaseId: Type.String({ minLength: 1, allowed: "a non-empty string" }),
  agentId: Type.Optional(Type.String({ minLength: 1, allowed: "a non-empty string" })),
  admittedAt: Timestamp,
  expiresAt: Type.Optional(Timestamp),
});
export type HeldLease = Static<typeof HeldLease>;

export const StoredLease = object({
  ...HeldLease.properties,
  providerId: ProviderId,
  /** The lease's own time-to-live (acquire's `ttlMs`, or the host's), so a restart keeps it. */
  ttlMs: Type.Optional(Type.Integer({ minimum: 1, allowed: "a positive integer" })),
});
export type StoredLease = Static<typeof StoredLease>;

export const ProviderSettings = defaulted(object({
  limit: Limit,
  cooldownMs: Type.Optional(defaulted(CooldownMs, LIMITS.cooldownMs.default)),
  autoReduced: Type.Optional(defaulted(Flag, false)),
  autoReducedFrom: Type.Optional(Limit),
  noticeDismissed: Type.Optional(defaulted(Flag, false)),
  // Absent means the default (LIMITS.responseTimeoutMs), so files written before it existed stay as they are.
  responseTimeoutMs: Type.Optional(ResponseTimeoutMs),
  upstream: Type.Optional(HttpUrl),
  usageGate: Type.Optional(UsageGateConfig),
  // SPEC §7: kept on Redis while true; absent means local, so older files stay as they are.
  shared: Type.Optional(Flag),
  // SPEC §8: absent means no hold.
  holdNewAtPercent: Type.Optional(HoldNewAtPercent),
}), {}); // a `default`, so Value.Default descends into each provider of the record
/** After defaults are filled, every defaulted field is present. */
export type ProviderSettings = Static<typeof ProviderSettings> &
  Required<Pick<Static<typeof ProviderSettings>, "cooldownMs" | "autoReduced" | "noticeDismissed">>;

export const CURRENT_SCHEMA_VERSION = 1;

export const SettingsFile = object({
  schemaVersion: Type.Integer({
    minimum: CURRENT_SCHEMA_VERSION,
    maximum: CURRENT_SCHEMA_VERSION,
    allowed: `the integer ${CURRENT_SCHEMA_VERSION}`,
  }),
  providers: Type.Optional(
    Type.Record(Type.String({ pattern: PROVIDER_ID_PATTERN.source }), ProviderSettings, {
      additionalProperties: false,
      allowed: "an object keyed by provider ids (lowercase letters, digits, '.', '_' or '-')",
      default: {},
    }),
  ),
  routes: Type.Optional(
    defaulted(
      object({
        threshold: Type.Optional(defaulted(Threshold, LIMITS.threshold.default)),
        cooldownMs: Type.Optional(defaulted(BreakerCooldownMs, LIMITS.breakerCooldownMs.default)),
      }),
      {},
    ),
  ),
  // Only in files of Headroom versions that kept held leases here: read once, moved to
  // leases.json (electron/settings/lease-file.ts) and removed from this file.
  leases: Type.Optional(Type.Array(StoredLease, { allowed: "a list" })),
}, "an object");

// A type alias, not an interface: conf's generic wants Record<string, any>.
export type SettingsData = {
  schemaVersion: number;
  providers: Record<string, ProviderSettings>;
  routes: BreakerSettings;
};
