// The persisted settings (SPEC §1, §2, §5). Their schema is written once in shared/schemas.ts:
// the same TypeBox value decides at open time whether a file on disk can be trusted and is the
// JSON Schema conf and electron-store validate every write against.
import type { TSchema } from "@sinclair/typebox";
import type { Schema } from "conf";
import { Value } from "@sinclair/typebox/value";
import { checkStored, opened, shown } from "../../shared/check";
import {
  CURRENT_SCHEMA_VERSION,
  HTTP_URL_FORMAT,
  ProviderSettings,
  SettingsFile,
  isHttpUrl,
  BreakerSettings,
  type SettingsData,
  type StoredLease,
} from "../../shared/schemas";

/** One property's schema, as conf takes it. */
type ValueSchema = Schema<SettingsData>[keyof SettingsData];

export { CURRENT_SCHEMA_VERSION } from "../../shared/schemas";
export type { ProviderSettings, SettingsData, StoredLease } from "../../shared/schemas";

export const DEFAULT_ROUTES: Readonly<BreakerSettings> = Object.freeze(Value.Default(BreakerSettings, {}) as BreakerSettings);

export function defaultSettings(): SettingsData {
  return { schemaVersion: CURRENT_SCHEMA_VERSION, providers: {}, routes: { ...DEFAULT_ROUTES } };
}

// conf's `schema` option is the `properties` of the root object. Our `allowed` wording and
// the http-url format are taught to its ajv (SETTINGS_AJV_OPTIONS), so ajv checks exactly what
// TypeBox checks. The top-level `default`s are left out: conf would write them into a missing
// file at once, and they are only for reading (Value.Default in checkSettings).
const { schemaVersion, providers, routes, leases } = SettingsFile.properties;
// `satisfies` names every property of the file once: one added there and not here is a type error.
const fileProperties = {
  schemaVersion: withoutDefault(schemaVersion),
  providers: withoutDefault(providers),
  routes: withoutDefault(routes),
  leases: withoutDefault(leases),
} satisfies Record<keyof typeof SettingsFile.properties, ValueSchema>;
export const SETTINGS_JSON_SCHEMA: Schema<SettingsData> = fileProperties;

/**
 * conf checks the file on disk when it opens it, before our reader's copy (unknown keys dropped)
 * is ever written back: so its schema leaves objects open (`opened`), and a key an older or newer
 * Headroom wrote is never a reason to refuse the file.
 */
function withoutDefault({ default: _unused, ...schema }: TSchema): ValueSchema {
  return opened(schema) as ValueSchema;
}

export const SETTINGS_AJV_OPTIONS = {
  keywords: ["allowed", "implied"],
  formats: { [HTTP_URL_FORMAT]: isHttpUrl },
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type SettingsCheck =
  | { ok: true; data: SettingsData; /** Held leases an older Headroom kept in this file. */ legacyLeases?: StoredLease[] }
  | { ok: false; problem: string };

/**
 * Validates a current-version layout (run migrateSettings first). Returns a fresh object with
 * defaults filled in and only known keys: unknown keys are not corruption, they are dropped.
 */
export function checkSettings(raw: unknown): SettingsCheck {
  if (!isPlainObject(raw)) return { ok: false, problem: `settings must be an object (got ${shown(raw)})` };
  const checked = checkStored(SettingsFile, raw, "settings");
  if (!checked.ok) return { ok: false, problem: checked.message };
  const { leases, ...settings } = checked.value as SettingsData & { leases?: StoredLease[] };
  return { ok: true, data: settings, ...(leases === undefined ? {} : { legacyLeases: leases }) };
}

/** One provider's record, checked as checkSettings checks it inside the file. */
export function checkProviderSettings(providerId: string, raw: ProviderSettings): { ok: true; data: ProviderSettings } | { ok: false; problem: string } {
  const checked = checkStored(ProviderSettings, raw, `settings.providers.${providerId}`);
  if (!checked.ok) return { ok: false, problem: checked.message };
  return { ok: true, data: checked.value as ProviderSettings };
}
