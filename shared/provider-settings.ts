// One provider's settings (SPEC §1, §5), and the only list of their fields. The stored record
// and its type, its defaults, the configure patch (`PUT /concurrency/providers/:id`, IPC
// `provider:configure`), the view that answers it and the rules that apply a patch all come
// from the schema below, so a new setting is one field here (docs/architecture.md).
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { LIMITS } from "./limits";
import {
  CooldownMs,
  Flag,
  HeaderMap,
  HoldNewAtPercent,
  HttpUrl,
  Limit,
  PollMs,
  ResponseTimeoutMs,
  canonicalUrl,
  defaulted,
  object,
  orNull,
  type DefaultedKeys,
} from "./fields";

/** `implied`: what an absent field means. It is not written into the file (see `compact`). */
declare module "@sinclair/typebox" {
  interface SchemaOptions {
    implied?: unknown;
  }
}

/** A field a file may lack: absent reads as `value`, and storing `value` leaves it out again, so older files stay as they are. */
const implied = <S extends TSchema, V extends Static<S>>(schema: S, value: V): S & { implied: V } => ({ ...schema, implied: value });

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

/** The service's part, kept beside the pool and set by the configure patch. A new setting goes here. */
const OPTION_FIELDS = {
  responseTimeoutMs: Type.Optional(implied(ResponseTimeoutMs, LIMITS.responseTimeoutMs.default)),
  upstream: Type.Optional(HttpUrl),
  usageGate: Type.Optional(UsageGateConfig),
  // SPEC §7: kept on Redis while true.
  shared: Type.Optional(implied(Flag, false)),
  // SPEC §8, kept on this host (like the upstream): new leases wait while a plan window is at least this full; absent = no hold.
  holdNewAtPercent: Type.Optional(HoldNewAtPercent),
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
  upstream: Type.Optional(orNull(HttpUrl, "an http:// or https:// URL without credentials, or null")),
  usageGate: Type.Optional(
    orNull(
      object({ url: HttpUrl, pollMs: Type.Optional(PollMs), headers: Type.Optional(HeaderMap) }),
      "an object { url, pollMs?, headers? } or null",
    ),
  ),
  holdNewAtPercent: Type.Optional(orNull(HoldNewAtPercent, "an integer from 1 to 100, or null (no hold)")),
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

type ShownKeys = { [K in keyof Fields]: Fields[K] extends { implied: infer V } ? (V extends boolean ? never : K) : never }[keyof Fields];

export type ProviderConfigView = { providerId: string } & Pick<ProviderSettings, "limit" | "cooldownMs"> &
  ProviderOptions &
  Required<Pick<ProviderOptions, ShownKeys>>;

/** The options with their implied values filled in; a flag reads absent as false, and the view has always left a false flag out. */
export function configView(providerId: string, { limit, cooldownMs }: PoolConfig, options: ProviderOptions): ProviderConfigView {
  const shown = Object.fromEntries(Object.entries(IMPLIED).filter(([, value]) => typeof value !== "boolean"));
  return { providerId, limit, cooldownMs, ...(shown as Required<Pick<ProviderOptions, ShownKeys>>), ...options };
}
