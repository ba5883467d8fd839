// Every input of SPEC §1–3 and every persisted setting, each written once with TypeBox: one
// definition is the static type, the runtime check (shared/check.ts) and the JSON Schema that
// conf and electron-store validate the settings file with. A provider's settings are their own
// record (shared/provider-settings.ts); the values both are made of are in shared/fields.ts.
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./limits";
import {
  AgentId,
  BreakerCooldownMs,
  CooldownMs,
  Flag,
  Limit,
  LeaseOutcome,
  PROVIDER_ID_PATTERN,
  ProviderId,
  Reason,
  RouteIdPart,
  RouteKey,
  RouteOutcome,
  Threshold,
  Timestamp,
  TokenId,
  defaulted,
  integer,
  object,
} from "./fields";
import { ProviderSettings } from "./provider-settings";

export * from "./fields";
export * from "./provider-settings";

// ── path parameters ─────────────────────────────────────────────────────────

export const ProviderParams = object({ providerId: ProviderId });
export const LeaseParams = object({ leaseId: TokenId });

// ── query parameters ────────────────────────────────────────────────────────

export const SeriesQuery = object({ minutes: Type.Optional(integer(LIMITS.seriesMinutes)) });

// ── request bodies ──────────────────────────────────────────────────────────

export const LimitBody = object({ limit: Limit });
export const CooldownBody = object({ cooldownMs: CooldownMs });

export const AcquireBody = object({
  providerId: ProviderId,
  agentId: Type.Optional(AgentId),
  waiterId: Type.Optional(TokenId),
  timeoutMs: Type.Optional(integer({ min: 0, max: LIMITS.timeoutMs.max })),
  ttlMs: Type.Optional(integer(LIMITS.leaseTtlMs)),
  /** SPEC §8: `headroom run --resume` waiting out a window; goes before other waiters. */
  resume: Type.Optional(Flag),
});
export type AcquireRequest = Static<typeof AcquireBody>;

export const ReleaseBody = object({
  outcome: LeaseOutcome,
  retryAfterMs: Type.Optional(integer({ min: 0, max: LIMITS.retryAfterMs.max })),
});

/**
 * SPEC §10: plan windows a client read for itself (Claude Code's status line), posted as
 * readings of a provider. The same names and ranges as the proxy's readings (SPEC §8).
 */
// Closed objects (issue 27's strict inputs): a misspelt field is refused, not ignored.
export const ReportedWindow = Type.Object(
  {
    name: Type.String({ pattern: "^[a-z0-9_]{1,32}$", allowed: "1 to 32 lowercase letters, digits or _ (e.g. 5h, 7d)" }),
    usedPercent: Type.Number({ minimum: 0, maximum: 100, allowed: "a number from 0 to 100" }),
    resetsAt: Type.Optional(Timestamp),
  },
  { additionalProperties: false, allowed: "an object with only the fields name, usedPercent, resetsAt" },
);
export type ReportedWindow = Static<typeof ReportedWindow>;
export const WindowsBody = Type.Object(
  { windows: Type.Array(ReportedWindow, { minItems: 1, maxItems: 8, allowed: "a list of 1 to 8 windows { name, usedPercent, resetsAt? }" }) },
  { additionalProperties: false, allowed: "an object with only the field windows" },
);

export const RouteRunBody = object({ ...RouteKey.properties, runId: RouteIdPart });
export const RouteOutcomeBody = object({
  ...RouteKey.properties,
  runId: RouteIdPart,
  outcome: RouteOutcome,
  reason: Type.Optional(Reason),
});

/** The route breaker's settings (SPEC §2), one record for the file, the API and the window. */
export const BreakerSettings = object({
  threshold: defaulted(Threshold, LIMITS.threshold.default),
  cooldownMs: defaulted(BreakerCooldownMs, LIMITS.breakerCooldownMs.default),
});
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
  routes: Type.Optional(defaulted(Type.Partial(BreakerSettings), {})),
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
