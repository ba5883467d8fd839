// What one provider setting says about itself, said once beside its schema: its bounds (the
// schema's), what an absent field means, what "off" sets, and its words — the window's label,
// help and unit, the CLI's verb and sentence. The table of them is SETTINGS in
// shared/provider-settings.ts; the API's check, the settings file, `headroom providers <verb>`
// and the details panel's field are derived from it, so a new setting is one entry there and
// its rule (docs/architecture.md "Adding a setting").
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { formatDuration } from "./duration";

/** How a value is typed and shown: a number (`%`, `$` or none), milliseconds, or one of a few words. */
type SettingControl = "number" | "duration" | "choice";

interface SettingWords {
  /** The window's visible label and the start of the field's accessible name. */
  label: string;
  /** One sentence under the field and in `headroom help providers`. */
  help: string;
  /** The unit after a number: `%` (percent) or `$` (dollars, written before it). */
  unit?: "%" | "$";
  /** `headroom providers <verb> <id> <value>`. */
  verb: string;
  /** The CLI's sentence once set: `holds new agents back while a plan window is at 90 % or more`. */
  on: (shown: string) => string;
  /** ...and once off (absent, or the `off` value). */
  offText: string;
}

export interface SettingMeta<V> {
  control: SettingControl;
  /** What an absent field means; shown by `GET /concurrency/providers/:id`, never written to the file. */
  implied?: V;
  /** What `off` (CLI) or an empty field (window) sets: a value that means off, else `null` clears it. */
  off?: V;
  words: SettingWords;
}

export interface Setting<S extends TSchema = TSchema> extends SettingMeta<Static<S>> {
  /** The stored value's schema: bounds and `allowed` words. */
  schema: S;
  /** The patch's: the same, or `null` to clear it (back to `implied`, or off). */
  patch: TSchema;
}

declare module "@sinclair/typebox" {
  interface SchemaOptions {
    /** What an absent field means (shared/provider-settings.ts `compact` leaves it out of the file). */
    implied?: unknown;
  }
}

export function setting<S extends TSchema, const M extends SettingMeta<Static<S>>>(schema: S, meta: M): Setting<S> & M {
  const stored = meta.implied === undefined ? schema : { ...schema, implied: meta.implied };
  const clears = meta.implied === undefined ? "null (off)" : `null (back to ${shownValue(meta, meta.implied)})`;
  return { ...meta, schema: stored, patch: Type.Union([schema, Type.Null()], { allowed: `${schema.allowed ?? "a value"}, or ${clears}` }) };
}

/** A value as the window and the CLI show it: `90 %`, `2 min`, `$20.00`, `allow`, or `off`. */
export function shownValue(meta: Pick<SettingMeta<unknown>, "control" | "off" | "words">, value: unknown): string {
  if (value === undefined || value === null || (meta.off !== undefined && value === meta.off)) return "off";
  if (meta.control === "duration" && typeof value === "number") return formatDuration(value);
  if (meta.words.unit === "$" && typeof value === "number") return `$${value.toFixed(2)}`;
  if (meta.words.unit === "%") return `${String(value)} %`;
  return String(value);
}

/** The words a choice allows, from its schema (a union of literals). */
export function choicesOf(item: Setting): string[] {
  const variants = (item.schema as { anyOf?: { const?: unknown }[] }).anyOf ?? [];
  return variants.flatMap((variant) => (typeof variant.const === "string" ? [variant.const] : []));
}

/** A number's bounds, from its schema. */
export function rangeOf(item: Setting): { min: number; max: number } {
  const { minimum, maximum } = item.schema as { minimum?: number; maximum?: number };
  return { min: minimum ?? 0, max: maximum ?? Number.MAX_SAFE_INTEGER };
}

/** The CLI's argument: `<percent|off>`, `<duration|off>`, `<allow|stop>`, `<dollars|off>`. */
export function argumentOf(item: Setting): string {
  if (item.control === "choice") return choicesOf(item).join("|");
  const what = item.control === "duration" ? "duration" : item.words.unit === "%" ? "percent" : item.words.unit === "$" ? "dollars" : "number";
  return canBeOff(item) ? `${what}|off` : what;
}

/** Off is a value (a wait of 0) or an absent field that means none (no hold, no budget). */
export function canBeOff(item: Pick<Setting, "off" | "implied">): boolean {
  return item.off !== undefined || item.implied === undefined;
}
