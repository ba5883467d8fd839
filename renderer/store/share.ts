// Structural sharing: a pushed snapshot is all new objects, but an entry equal to the one
// already held keeps the old object, so components memoised on it do not re-render.
import type { ConcurrencyStatusEntry, LeasesView, RouteEntry } from "../../shared/types";

export function shallowEqual(a: object, b: object, skip?: (key: string) => boolean): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => skip?.(key) || Object.is(left[key], right[key]));
}

/** Equal as data: the same JSON-shaped values all the way down (a snapshot holds nothing else). */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => key in right && sameData(left[key], right[key]));
}

/** Nested parts (the usage gate, the upstream readings) arrive as new objects on every push too. */
export function sameEntry(a: ConcurrencyStatusEntry, b: ConcurrencyStatusEntry): boolean {
  return sameData(a, b);
}

/** An open route's remainingMs shrinks in every snapshot; the window counts it down from openUntil. */
export function sameRoute(a: RouteEntry, b: RouteEntry): boolean {
  const ticking = a.openUntil !== undefined && a.openUntil === b.openUntil;
  return shallowEqual(a, b, (key) => ticking && key === "remainingMs");
}

export function sameLeases(a: LeasesView, b: LeasesView): boolean {
  return sameData(a, b);
}

export interface Keyed<T> {
  keys: readonly string[];
  byKey: Readonly<Record<string, T>>;
  changed: string[];
  removed: string[];
}

/** Merges a fresh list into what is held; unchanged entries and an unchanged key list keep identity. */
export function shareKeyed<T>(
  held: Keyed<T>,
  fresh: readonly T[],
  keyOf: (item: T) => string,
  same: (a: T, b: T) => boolean,
): Keyed<T> {
  const byKey: Record<string, T> = {};
  const keys: string[] = [];
  const changed: string[] = [];
  for (const item of fresh) {
    const key = keyOf(item);
    const old = held.byKey[key];
    const kept = old !== undefined && same(old, item) ? old : item;
    if (kept !== old) changed.push(key);
    byKey[key] = kept;
    keys.push(key);
  }
  const removed = held.keys.filter((key) => !(key in byKey));
  const sameKeys = keys.length === held.keys.length && keys.every((key, i) => key === held.keys[i]);
  const untouched = sameKeys && changed.length === 0;
  return {
    keys: sameKeys ? held.keys : keys,
    byKey: untouched ? held.byKey : byKey,
    changed,
    removed,
  };
}
