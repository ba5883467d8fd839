// Runs a TypeBox schema over input that crossed a process boundary and, when it does not fit,
// says in words which field, what is allowed and what came (`limit must be an integer from 1
// to 10000 (got 1.5)`). Every schema leaf carries `allowed`, the phrase after "must be".
import type { Static, TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { CONTROL_RANGES, INVISIBLE_RANGES } from "./tame";

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** The checked value, or the refusal's message thrown as the caller's own error (a 400, a usage error, a RangeError). */
export function validOr<T>(checked: Checked<T>, refuse: (message: string) => Error): T {
  if (!checked.ok) throw refuse(checked.message);
  return checked.value;
}

/** SPEC §3: deeper JSON is refused before anything walks it, so nothing can overflow a stack. */
const MAX_JSON_DEPTH = 64;

/** The schema option that words what a field allows, e.g. "an integer from 1 to 10000". */
declare module "@sinclair/typebox" {
  interface SchemaOptions {
    allowed?: string;
  }
}

const NAMED = new RegExp(`[${CONTROL_RANGES}${INVISIBLE_RANGES}]`, "g");

export function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    // JSON escapes C0 but not C1 or the invisible characters: each is named by its escape, so
    // the refusal says which character it was and never carries one to a terminal itself.
    return JSON.stringify(cut).replace(NAMED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  } catch {
    return String(value);
  }
}

/** Depth of nested arrays and objects, measured without recursion; stops counting past `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > limit) return true;
    for (const inner of Object.values(node)) stack.push([inner, depth + 1]);
  }
  return false;
}

/**
 * The dotted path of the first key that would reach a prototype if anything merged the value:
 * `__proto__`, or `prototype` inside `constructor` (own keys, as JSON.parse makes them). A
 * provider may still be named "constructor" or "prototype". Walked without recursion.
 */
function prototypeKey(value: unknown, root: string): string | undefined {
  const stack: [unknown, string, string][] = [[value, root, ""]];
  while (stack.length > 0) {
    const [node, path, parentKey] = stack.pop() as [unknown, string, string];
    if (typeof node !== "object" || node === null) continue;
    for (const [key, inner] of Object.entries(node)) {
      if (key === "__proto__" || (key === "prototype" && parentKey === "constructor")) return `${path}.${key}`;
      stack.push([inner, `${path}.${key}`, key]);
    }
  }
  return undefined;
}

function fieldOf(root: string, path: string): string {
  if (path === "") return root;
  return path
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/**
 * A union (`url | null`) fails as a whole; when one of its variants got further into the value
 * (a nested field), that variant's error says more, so it is the one reported.
 */
function mostSpecific(error: ValueError): ValueError {
  let best = error;
  for (const variant of error.errors) {
    const inner = variant.First();
    if (inner && inner.path.length > best.path.length) best = mostSpecific(inner);
  }
  return best;
}

export function check<S extends TSchema>(schema: S, value: unknown, root = "body"): Checked<Static<S>> {
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    return { ok: false, field: root, message: `${root} must not nest deeper than ${MAX_JSON_DEPTH} levels` };
  }
  const forbidden = prototypeKey(value, root);
  if (forbidden !== undefined) {
    return { ok: false, field: forbidden, message: `${forbidden} is not allowed: a __proto__ or constructor.prototype key is never a field` };
  }
  // Checked as it came: an input's objects are closed (shared/fields.ts `object`), so a key
  // the schema does not name is refused by name, never dropped. A copy goes on.
  if (!Value.Check(schema, value)) return refusal(schema, value, root);
  return { ok: true, value: structuredClone(value) as Static<S> };
}

/**
 * A file written by another Headroom (older or newer): keys this one does not know are dropped
 * first, so only what it does know can make the file untrustworthy (SPEC §5 never refuses a
 * user's file for a key). Defaults are filled, then the closed schema is checked.
 */
export function checkStored<S extends TSchema>(schema: S, value: unknown, root: string): Checked<Static<S>> {
  const filled = Value.Default(schema, structuredClone(value));
  // What it does hold is checked first, so a bad provider id is still a bad file, not dropped.
  const lenient = check(opened(schema), filled, root);
  if (!lenient.ok) return lenient;
  return check(schema, Value.Clean(schema, filled), root);
}

const openedCache = new WeakMap<object, unknown>();

/**
 * The same schema with its objects open (unknown keys allowed): for what was stored, not sent.
 * conf validates the file with it too. A record keeps its key pattern.
 */
export function opened<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(opened) as T;
  if (typeof schema !== "object" || schema === null) return schema;
  const cached = openedCache.get(schema);
  if (cached !== undefined) return cached as T;
  const copy: Record<string | symbol, unknown> = {};
  // Own keys with symbols: TypeBox marks each schema's kind with one.
  for (const key of Reflect.ownKeys(schema)) copy[key] = opened((schema as Record<string | symbol, unknown>)[key]);
  if ("properties" in copy && copy.additionalProperties === false) delete copy.additionalProperties;
  openedCache.set(schema, copy);
  return copy as T;
}

/** `responseTimeoutMS is not a field of body; the fields allowed are …` (with a near miss named). */
function unknownField(error: ValueError, root: string): string | undefined {
  if (error.type !== ValueErrorType.ObjectAdditionalProperties) return undefined;
  const properties = (error.schema as { properties?: Record<string, unknown> }).properties;
  if (!properties) return undefined; // a record's key that does not fit: its `allowed` says what does
  const field = fieldOf(root, error.path);
  const owner = fieldOf(root, error.path.slice(0, error.path.lastIndexOf("/")));
  const names = Object.keys(properties);
  const key = field.slice(field.lastIndexOf(".") + 1);
  const near = names.find((name) => name.toLowerCase() === key.toLowerCase());
  const allowed = names.length > 0 ? `the fields allowed are ${names.join(", ")}` : "it takes no fields";
  return `${field} is not a field of ${owner}; ${near ? `did you mean ${near}? ` : ""}${allowed}`;
}

function refusal(schema: TSchema, value: unknown, root: string): { ok: false; field: string; message: string } {
  const error = Value.Errors(schema, value).First();
  if (!error) return { ok: false, field: root, message: `${root} is not valid` };
  const first = mostSpecific(error);
  const field = fieldOf(root, first.path);
  const unknown = unknownField(first, root);
  if (unknown !== undefined) return { ok: false, field, message: unknown };
  const allowed = first.schema.allowed;
  const message = allowed ? `${field} must be ${allowed} (got ${shown(first.value)})` : `${field}: ${first.message} (got ${shown(first.value)})`;
  return { ok: false, field, message };
}
