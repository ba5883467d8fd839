// One provider's settings (SPEC §1, §5, §8, §9), and the only list of their fields. The stored
// record and its type, its defaults, the configure patch (`PUT /concurrency/providers/:id`, IPC
// `provider:configure`), the view that answers it and the rules that apply a patch all come
// from the schema below. A plain setting (a number, a duration, a choice) is one SETTINGS entry:
// its schema, its default and its words; the CLI's `providers <verb>` and the details panel's
// field come from the entry too (docs/architecture.md "Adding a setting").
import { Type, type Static, type TOptional, type TSchema } from "@sinclair/typebox";
import { LIMITS } from "./limits";
import {
  CooldownMs,
  Flag,
  HeaderMap,
  HttpUrl,
  Limit,
  PollMs,
  canonicalUrl,
  defaulted,
  integer,
  object,
  oneOf,
  orNull,
  type DefaultedKeys,
} from "./fields";
import { setting, type Setting } from "./setting";

/** A field a file may lack: absent reads as `value`, and storing `value` leaves it out again, so older files stay as they are. */
const implied = <S extends TSchema, V extends Static<S>>(schema: S, value: V): S & { implied: V } => ({ ...schema, implied: value });

/**
 * The plain settings, each kept on this host (SPEC §8 "Each host's settings"; a shared
 * provider's daily budget is one for all hosts, which its rule keeps on Redis).
 */
export const SETTINGS = {
  responseTimeoutMs: setting(integer({ min: 1_000, max: 3_600_000 }), {
    control: "duration",
    implied: 300_000,
    words: {
      label: "Response timeout",
      help: "How long the proxy waits for the provider's next byte before it answers 504.",
      verb: "timeout",
      on: (shown) => `gives up on a silent provider after ${shown}`,
      offText: "",
    },
  }),
  holdNewAtPercent: setting(integer({ min: 1, max: 100 }), {
    control: "number",
    words: {
      label: "Hold new agents at",
      help: "New agents wait while a plan window is at least this full; agents already at work keep going.",
      unit: "%",
      verb: "hold",
      on: (shown) => `holds new agents back while a plan window is at ${shown} or more`,
      offText: "holds no new agents back now",
    },
  }),
  waitForResetMs: setting(integer({ min: 0, max: 600_000 }), {
    control: "duration",
    implied: 120_000,
    off: 0,
    words: {
      label: "Wait through a near reset",
      help: "A request that meets a used-up window whose reset is at most this far away waits for it instead of being refused; off (0) always refuses.",
      verb: "wait-for-reset",
      on: (shown) => `lets requests wait through a window reset up to ${shown} away`,
      offText: "refuses requests at a used-up window however near its reset",
    },
  }),
  overage: setting(oneOf(["allow", "stop"] as const), {
    control: "choice",
    implied: "allow",
    words: {
      label: "Paid extra usage",
      help: "allow: requests go on into paid extra usage once the plan's window is used up; stop: a used-up plan window pauses the provider.",
      verb: "overage",
      on: (shown) => (shown === "stop" ? "stops at the plan's limit (no paid extra usage)" : "goes on into paid extra usage past the plan's limit"),
      offText: "",
    },
  }),
  dailyBudgetUsd: setting(Type.Number({ minimum: 0.01, maximum: 100_000, allowed: "a number of dollars from 0.01 to 100000" }), {
    control: "number",
    words: {
      label: "Daily budget",
      help: "Once today's cost reaches it, the provider pauses until midnight.",
      unit: "$",
      verb: "budget",
      on: (shown) => `pauses once today's cost reaches ${shown}`,
      offText: "has no daily budget now",
    },
  }),
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

type Optional<S extends TSchema> = TOptional<S>;
type StoredFields = { [K in SettingName]: Optional<(typeof SETTINGS)[K]["schema"]> };
type PatchFields = { [K in SettingName]: Optional<(typeof SETTINGS)[K]["patch"]> };
const storedFields = Object.fromEntries(SETTING_NAMES.map((name) => [name, Type.Optional(SETTINGS[name].schema)])) as StoredFields;
const patchFields = Object.fromEntries(SETTING_NAMES.map((name) => [name, Type.Optional(SETTINGS[name].patch)])) as PatchFields;

export const UsageGateConfig = object({
  url: HttpUrl,
  pollMs: PollMs,
  headers: Type.Optional(HeaderMap),
});
export type UsageGateConfig = Static<typeof UsageGateConfig>;

/** The engine's part (electron/engine `PoolConfig`): the pool keeps these and changes some itself. */
const POOL_FIELDS = {
  limit: Limit,
  cooldownMs: Type.Optional(defaulted(CooldownMs, LIMITS.cooldownMs.default)),
  autoReduced: Type.Optional(defaulted(Flag, false)),
  autoReducedFrom: Type.Optional(Limit),
  noticeDismissed: Type.Optional(defaulted(Flag, false)),
};

/** The service's part, kept beside the pool and set by the configure patch. A plain setting goes in SETTINGS. */
const OPTION_FIELDS = {
  upstream: Type.Optional(HttpUrl),
  usageGate: Type.Optional(UsageGateConfig),
  // SPEC §7: kept on Redis while true.
  shared: Type.Optional(implied(Flag, false)),
  ...storedFields,
};

/** The options every status entry carries too (shared/status-entry.ts), so the window sees them in each push. */
export const IN_STATUS = ["upstream"] as const satisfies readonly (keyof typeof OPTION_FIELDS)[];
export const StatusOptions = Type.Pick(object(OPTION_FIELDS), IN_STATUS);

/** What of the options a status entry shows. */
export function statusOptions(options: ProviderOptions): Static<typeof StatusOptions> {
  return Object.fromEntries(IN_STATUS.flatMap((key) => (options[key] === undefined ? [] : [[key, options[key]]])));
}

type Fields = typeof POOL_FIELDS & typeof OPTION_FIELDS;

// A `default` on the record too, so Value.Default descends into each provider of the file.
export const ProviderSettings = defaulted(object({ ...POOL_FIELDS, ...OPTION_FIELDS }), {});
type Stored = Static<typeof ProviderSettings>;
/** After defaults are filled, every defaulted field is present. */
export type ProviderSettings = Stored & Required<Pick<Stored, DefaultedKeys<Fields>>>;

type PoolKey = keyof typeof POOL_FIELDS;
/** What the engine's pool is built from and answers with `config()`. */
export type PoolConfig = Pick<ProviderSettings, PoolKey>;
/** What the service keeps beside the pool, as stored: a field at its implied value is absent. */
export type ProviderOptions = Omit<ProviderSettings, PoolKey>;

const POOL_KEYS: ReadonlySet<string> = new Set(Object.keys(POOL_FIELDS));

/** The record as the engine and the service hold it: the pool's config, and the options beside it. */
export function splitSettings(settings: ProviderSettings): { config: PoolConfig; options: ProviderOptions } {
  const entries = Object.entries(settings);
  return {
    config: Object.fromEntries(entries.filter(([key]) => POOL_KEYS.has(key))) as PoolConfig,
    options: compact(Object.fromEntries(entries.filter(([key]) => !POOL_KEYS.has(key))) as ProviderOptions),
  };
}

/** The defaults of a provider that is added by its first limit. */
export function newProviderSettings(limit: number): ProviderSettings {
  return { limit, cooldownMs: LIMITS.cooldownMs.default, autoReduced: false, noticeDismissed: false };
}

// ── the configure patch ─────────────────────────────────────────────────────

/** Every option may be patched; where the patch spells a field differently, it says so here. */
export const ProviderConfigPatch = object({
  ...OPTION_FIELDS,
  ...patchFields,
  upstream: Type.Optional(orNull(HttpUrl, "an http:// or https:// URL without credentials, or null")),
  usageGate: Type.Optional(
    orNull(
      object({ url: HttpUrl, pollMs: Type.Optional(PollMs), headers: Type.Optional(HeaderMap) }),
      "an object { url, pollMs?, headers? } or null",
    ),
  ),
});
export type ProviderConfigPatch = Static<typeof ProviderConfigPatch>;

type Normalisers = {
  [K in keyof ProviderConfigPatch & keyof ProviderOptions]?: (value: NonNullable<ProviderConfigPatch[K]>) => ProviderOptions[K];
};

/** Patched values stored as the URL parser spells them ("HTTP://X/" → "http://x"), so the file and the API agree. */
const NORMALISE: Normalisers = {
  upstream: canonicalUrl,
  usageGate: (gate) => ({
    url: canonicalUrl(gate.url),
    pollMs: gate.pollMs ?? LIMITS.pollMs.default,
    ...(gate.headers === undefined ? {} : { headers: gate.headers }),
  }),
};

const IMPLIED: Record<string, unknown> = Object.fromEntries(
  Object.entries(ProviderSettings.properties).flatMap(([key, schema]) => ("implied" in schema ? [[key, schema.implied]] : [])),
);

/** Leaves out what is cleared or at its implied value, as the file has always held them. */
export function compact<T extends object>(record: T): T {
  const kept = Object.entries(record).filter(([key, value]) => value !== undefined && value !== IMPLIED[key]);
  return Object.fromEntries(kept) as T;
}

/** The patch rules: absent leaves a field alone, `null` clears it, anything else replaces it. */
export function patched(options: ProviderOptions, patch: ProviderConfigPatch): ProviderOptions {
  const next: Record<string, unknown> = { ...options };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const normalise = NORMALISE[key as keyof Normalisers] as ((value: unknown) => unknown) | undefined;
    next[key] = value === null ? undefined : (normalise?.(value) ?? value);
  }
  return compact(next as ProviderOptions);
}

// ── the view (SPEC §3 `GET /concurrency/providers/:id`) ─────────────────────

/** The settings with a default: the view always has them (SPEC §3: `waitForResetMs` and `overage` always present). */
type ShownKeys = { [K in SettingName]: (typeof SETTINGS)[K] extends { implied: unknown } ? K : never }[SettingName];

export type ProviderConfigView = { providerId: string } & Pick<ProviderSettings, "limit" | "cooldownMs"> &
  ProviderOptions &
  Required<Pick<ProviderOptions, ShownKeys>>;

/** The options with their implied values filled in; a flag reads absent as false, and the view has always left a false flag out. */
// Built once: the proxy reads a provider's view on every request.
const SHOWN = Object.fromEntries(Object.entries(IMPLIED).filter(([, value]) => typeof value !== "boolean"));

export function configView(providerId: string, { limit, cooldownMs }: PoolConfig, options: ProviderOptions): ProviderConfigView {
  const shown = SHOWN;
  return { providerId, limit, cooldownMs, ...(shown as Required<Pick<ProviderOptions, ShownKeys>>), ...options };
}
