// Runs a TypeBox schema over input that crossed a process boundary and, when it does not fit,
// says in words which field, what is allowed and what came (`limit must be an integer from 1
// to 10000 (got 1.5)`). Every schema leaf carries `allowed`, the phrase after "must be".
import type { Static, TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
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
  // Checked as it came (a record's bad key is an error, not something to drop), then again
  // with only the keys the schema names, which is what goes on: so `{ "foo": 1 }` cannot pass
  // for "sets threshold, cooldownMs or both".
  if (!Value.Check(schema, value)) return refusal(schema, value, root);
  const known = Value.Clean(schema, structuredClone(value));
  if (!Value.Check(schema, known)) return refusal(schema, known, root);
  return { ok: true, value: known as Static<S> };
}

function refusal(schema: TSchema, value: unknown, root: string): { ok: false; field: string; message: string } {
  const error = Value.Errors(schema, value).First();
  if (!error) return { ok: false, field: root, message: `${root} is not valid` };
  const first = mostSpecific(error);
  const field = fieldOf(root, first.path);
  const allowed = first.schema.allowed;
  const message = allowed ? `${field} must be ${allowed} (got ${shown(first.value)})` : `${field}: ${first.message} (got ${shown(first.value)})`;
  return { ok: false, field, message };
}
