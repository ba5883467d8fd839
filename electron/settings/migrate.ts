// Our own schema migrations, keyed on the integer `schemaVersion` in the file. conf's
// semver-keyed migrations are documented as buggy and tie the layout to the app version;
// an integer per layout change is easier to reason about and to test.
import { CURRENT_SCHEMA_VERSION, DEFAULT_ROUTES, isPlainObject } from "./settings-schema";

type Layout = Record<string, unknown>;

/**
 * STEPS[n] turns a version-n layout into a version-(n+1) layout. A step may assume only the
 * shape its version wrote; checkSettings validates the result. Append, never edit.
 */
const STEPS: ReadonlyArray<(old: Layout) => Layout> = [
  // 0 -> 1: the pre-release layout was `{ providers: {...} }` alone; breaker settings and
  // persisted leases did not exist yet. Missing per-provider fields get their defaults in
  // checkSettings, so a pre-release `{ limit: 4 }` entry survives.
  (old) => ({
    schemaVersion: 1,
    providers: old.providers ?? {},
    routes: { ...DEFAULT_ROUTES },
    leases: [],
  }),
];

export type MigrationOutcome =
  | { ok: true; data: Layout; fromVersion: number }
  | { ok: false; problem: string; newer: boolean };

/** Brings a parsed settings file to CURRENT_SCHEMA_VERSION; a file without schemaVersion is version 0. */
export function migrateSettings(raw: unknown): MigrationOutcome {
  if (!isPlainObject(raw)) {
    return { ok: false, newer: false, problem: "the file does not hold a JSON object" };
  }
  const declared = raw.schemaVersion ?? 0;
  if (typeof declared !== "number" || !Number.isInteger(declared) || declared < 0) {
    return {
      ok: false,
      newer: false,
      problem: `schemaVersion must be a whole number (got ${JSON.stringify(declared)})`,
    };
  }
  if (declared > CURRENT_SCHEMA_VERSION) {
    // Written by a newer Headroom: rewriting it in our older layout would destroy its data.
    return {
      ok: false,
      newer: true,
      problem: `schemaVersion ${declared} was written by a newer Headroom; this one reads up to ${CURRENT_SCHEMA_VERSION}`,
    };
  }
  let data: Layout = raw;
  for (let version = declared; version < CURRENT_SCHEMA_VERSION; version++) {
    const step = STEPS[version];
    if (!step) throw new Error(`No settings migration from schemaVersion ${version}`);
    data = step(data);
  }
  return { ok: true, data, fromVersion: declared };
}
