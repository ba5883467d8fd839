// The persisted settings (SPEC §1, §2, §5): their shape, defaults, the JSON Schema conf and
// electron-store validate writes against, and the strict checker that decides at open time
// whether a file on disk can be trusted.
import type { Schema } from "conf";
import type { BreakerSettings, UsageGateConfig } from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import { PROVIDER_ID_PATTERN as SHARED_PROVIDER_ID } from "../../shared/validate";
import type { PersistedLease, PoolConfig } from "../engine/pool-types";

export const CURRENT_SCHEMA_VERSION = 1;

export interface ProviderSettings extends PoolConfig {
  upstream?: string;
  usageGate?: UsageGateConfig;
}

export interface StoredLease extends PersistedLease {
  providerId: string;
}

// A type alias rather than an interface: conf's generic wants Record<string, any>, which an
// interface (no implicit index signature) does not satisfy.
export type SettingsData = {
  schemaVersion: number;
  providers: Record<string, ProviderSettings>;
  routes: BreakerSettings;
  leases: StoredLease[];
};

// The ranges are the API's (shared/limits.ts), so a value the API accepts is never "corrupt" on disk.
const PROVIDER_ID = SHARED_PROVIDER_ID;
const PROVIDER_ID_PATTERN = PROVIDER_ID.source;
const LIMIT_RANGE = LIMITS.limit;
const COOLDOWN_RANGE = LIMITS.cooldownMs;
const DEFAULT_COOLDOWN_MS = LIMITS.cooldownMs.default;
const THRESHOLD_RANGE = LIMITS.threshold;
const BREAKER_COOLDOWN_RANGE = LIMITS.breakerCooldownMs;
const POLL_RANGE = LIMITS.pollMs;
export const DEFAULT_ROUTES: Readonly<BreakerSettings> = {
  threshold: LIMITS.threshold.default,
  cooldownMs: LIMITS.breakerCooldownMs.default,
};

export function defaultSettings(): SettingsData {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    providers: {},
    routes: { ...DEFAULT_ROUTES },
    leases: [],
  };
}

// ---- JSON Schema (conf's `schema` option: the `properties` of the root object) ----
// No `default` keywords: conf runs ajv with useDefaults, which would silently inject values
// into whatever is being written; defaults live in code (defaultSettings, checkSettings).
// Unknown properties are allowed everywhere, because checkSettings drops them at open and a
// stricter schema would make conf throw in its constructor on a file we already accepted.
const intIn = (r: { min: number; max: number }) =>
  ({ type: "integer", minimum: r.min, maximum: r.max }) as const;
const httpUrl = { type: "string", pattern: "^https?://", maxLength: 2048 } as const;

export const SETTINGS_JSON_SCHEMA: Schema<SettingsData> = {
  schemaVersion: { type: "integer", minimum: 0 },
  providers: {
    type: "object",
    propertyNames: { type: "string", pattern: PROVIDER_ID_PATTERN },
    additionalProperties: {
      type: "object",
      required: ["limit"],
      properties: {
        limit: intIn(LIMIT_RANGE),
        cooldownMs: intIn(COOLDOWN_RANGE),
        autoReduced: { type: "boolean" },
        autoReducedFrom: intIn(LIMIT_RANGE),
        noticeDismissed: { type: "boolean" },
        upstream: httpUrl,
        usageGate: {
          type: "object",
          required: ["url", "pollMs"],
          properties: {
            url: httpUrl,
            pollMs: intIn(POLL_RANGE),
            headers: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
  },
  routes: {
    type: "object",
    properties: { threshold: intIn(THRESHOLD_RANGE), cooldownMs: intIn(BREAKER_COOLDOWN_RANGE) },
  },
  leases: {
    type: "array",
    items: {
      type: "object",
      required: ["leaseId", "providerId", "admittedAt"],
      properties: {
        leaseId: { type: "string", minLength: 1 },
        providerId: { type: "string", pattern: PROVIDER_ID_PATTERN },
        agentId: { type: "string" },
        admittedAt: { type: "number", minimum: 0 },
        expiresAt: { type: "number", minimum: 0 },
      },
    },
  },
};

// ---- Runtime checker ----
// Each validator returns the clean value or throws InvalidSetting naming the field, what is
// allowed and what was found, so a moved-aside notice tells the user what to fix.

export class InvalidSetting extends Error {}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function expectObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new InvalidSetting(`${field} must be an object (got ${shown(value)})`);
  return value;
}

export function expectInteger(value: unknown, field: string, range: { min: number; max: number }): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new InvalidSetting(
      `${field} must be an integer from ${range.min} to ${range.max} (got ${shown(value)})`,
    );
  }
  return value;
}

export function expectTimestamp(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidSetting(`${field} must be a time in epoch milliseconds (got ${shown(value)})`);
  }
  return value;
}

export function expectBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw new InvalidSetting(`${field} must be true or false (got ${shown(value)})`);
  return value;
}

export function expectString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") {
    throw new InvalidSetting(`${field} must be a non-empty string (got ${shown(value)})`);
  }
  return value;
}

export function expectHttpUrl(value: unknown, field: string): string {
  const text = typeof value === "string" && value.length <= 2048 ? value : "";
  let protocol = "";
  try {
    protocol = new URL(text).protocol;
  } catch {
    // falls through to the error below
  }
  // The schema conf enforces on every write says ^https?:// (lower case, no leading space):
  // a file that passes here must also pass there, or every later write would fail.
  if ((protocol !== "http:" && protocol !== "https:") || !/^https?:\/\//.test(text)) {
    throw new InvalidSetting(`${field} must be an http:// or https:// URL (got ${shown(value)})`);
  }
  return text;
}

export function expectProviderId(value: unknown, field: string): string {
  if (typeof value !== "string" || !PROVIDER_ID.test(value)) {
    throw new InvalidSetting(
      `${field} must be a provider id: lowercase letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters (got ${shown(value)})`,
    );
  }
  return value;
}

/** `fallback` when absent: a hand-written provider `{ "limit": 4 }` is meant, not corrupt. */
function optional<T>(value: unknown, fallback: T, check: (v: unknown) => T): T {
  return value === undefined ? fallback : check(value);
}

export function checkUsageGate(value: unknown, field: string): UsageGateConfig {
  const raw = expectObject(value, field);
  const gate: UsageGateConfig = {
    url: expectHttpUrl(raw.url, `${field}.url`),
    pollMs: expectInteger(raw.pollMs, `${field}.pollMs`, POLL_RANGE),
  };
  if (raw.headers !== undefined) {
    const entries = Object.entries(expectObject(raw.headers, `${field}.headers`));
    for (const [name, v] of entries) {
      if (typeof v !== "string") {
        throw new InvalidSetting(`${field}.headers.${name} must be a string (got ${shown(v)})`);
      }
    }
    // fromEntries defines own properties, so a header literally named "__proto__" stays data.
    gate.headers = Object.fromEntries(entries) as Record<string, string>;
  }
  return gate;
}

export function checkProvider(value: unknown, field: string): ProviderSettings {
  const raw = expectObject(value, field);
  const provider: ProviderSettings = {
    limit: expectInteger(raw.limit, `${field}.limit`, LIMIT_RANGE),
    cooldownMs: optional(raw.cooldownMs, DEFAULT_COOLDOWN_MS, (v) =>
      expectInteger(v, `${field}.cooldownMs`, COOLDOWN_RANGE),
    ),
    autoReduced: optional(raw.autoReduced, false, (v) => expectBoolean(v, `${field}.autoReduced`)),
    noticeDismissed: optional(raw.noticeDismissed, false, (v) =>
      expectBoolean(v, `${field}.noticeDismissed`),
    ),
  };
  if (raw.autoReducedFrom !== undefined) {
    provider.autoReducedFrom = expectInteger(raw.autoReducedFrom, `${field}.autoReducedFrom`, LIMIT_RANGE);
  }
  if (raw.upstream !== undefined) provider.upstream = expectHttpUrl(raw.upstream, `${field}.upstream`);
  if (raw.usageGate !== undefined) provider.usageGate = checkUsageGate(raw.usageGate, `${field}.usageGate`);
  return provider;
}

export function checkRoutes(value: unknown, field: string): BreakerSettings {
  const raw = expectObject(value, field);
  return {
    threshold: optional(raw.threshold, DEFAULT_ROUTES.threshold, (v) =>
      expectInteger(v, `${field}.threshold`, THRESHOLD_RANGE),
    ),
    cooldownMs: optional(raw.cooldownMs, DEFAULT_ROUTES.cooldownMs, (v) =>
      expectInteger(v, `${field}.cooldownMs`, BREAKER_COOLDOWN_RANGE),
    ),
  };
}

export function checkLease(value: unknown, field: string): StoredLease {
  const raw = expectObject(value, field);
  const lease: StoredLease = {
    leaseId: expectString(raw.leaseId, `${field}.leaseId`),
    providerId: expectProviderId(raw.providerId, `${field}.providerId`),
    admittedAt: expectTimestamp(raw.admittedAt, `${field}.admittedAt`),
  };
  if (raw.agentId !== undefined) lease.agentId = expectString(raw.agentId, `${field}.agentId`);
  if (raw.expiresAt !== undefined) lease.expiresAt = expectTimestamp(raw.expiresAt, `${field}.expiresAt`);
  return lease;
}

export type SettingsCheck = { ok: true; data: SettingsData } | { ok: false; problem: string };

/**
 * Validates a current-version layout (run migrateSettings first). Returns a fresh object that
 * holds only known keys: unknown keys are not corruption, they are dropped.
 */
export function checkSettings(raw: unknown): SettingsCheck {
  try {
    const root = expectObject(raw, "settings");
    const version = expectInteger(root.schemaVersion, "schemaVersion", {
      min: CURRENT_SCHEMA_VERSION,
      max: CURRENT_SCHEMA_VERSION,
    });
    const providers: Record<string, ProviderSettings> = {};
    for (const [id, entry] of Object.entries(optional(root.providers, {}, (v) => expectObject(v, "providers")))) {
      expectProviderId(id, `provider id ${shown(id)}`);
      providers[id] = checkProvider(entry, `providers.${id}`);
    }
    const routes = optional(root.routes, { ...DEFAULT_ROUTES }, (v) => checkRoutes(v, "routes"));
    const rawLeases = optional<unknown[]>(root.leases, [], (v) => {
      if (!Array.isArray(v)) throw new InvalidSetting(`leases must be a list (got ${shown(v)})`);
      return v;
    });
    const leases = rawLeases.map((lease, i) => checkLease(lease, `leases[${i}]`));
    return { ok: true, data: { schemaVersion: version, providers, routes, leases } };
  } catch (error) {
    if (error instanceof InvalidSetting) return { ok: false, problem: error.message };
    throw error;
  }
}
