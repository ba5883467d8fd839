// The settings file: read once and checked by us, then written through conf (in `serve`) or
// electron-store (in the app). Opening never crashes: a file we cannot trust is moved aside
// with a notice for the status, and defaults are used. Held leases live beside it, in
// leases.json (lease-file.ts), which this opens too and moves an older file's leases into.
import fs from "node:fs";
import path from "node:path";
import Conf from "conf";
import { LIMITS } from "../../shared/limits";
import { DIR_MODE, FILE_MODE, errorText, removeLeftoverTemps, renameAside } from "./data-files";
import { openLeaseFile, type LeaseFile } from "./lease-file";
import { migrateSettings } from "./migrate";
import {
  CURRENT_SCHEMA_VERSION,
  SETTINGS_AJV_OPTIONS,
  SETTINGS_JSON_SCHEMA,
  checkProviderSettings,
  checkSettings,
  defaultSettings,
  type ProviderSettings,
  type SettingsData,
  type StoredLease,
} from "./settings-schema";

/** What we need from conf / electron-store: assigning `store` validates and writes atomically. */
interface SettingsBackend {
  readonly path: string;
  store: SettingsData;
}

/** Options a backend is built with; they are conf's option names and values. */
interface BackendOptions {
  cwd: string;
  configName: string;
  projectName: string;
  schema: typeof SETTINGS_JSON_SCHEMA;
  /** Teaches conf's ajv the schema's own keyword and format, so it checks what TypeBox checks. */
  ajvOptions: typeof SETTINGS_AJV_OPTIONS;
  configFileMode: number;
  clearInvalidConfig: false;
  watch: false;
  accessPropertiesByDotNotation: false;
}

/**
 * A factory, not an instance: conf and electron-store parse and schema-check the file in
 * their constructor and throw on a bad one (clearInvalidConfig: false), so the backend may
 * only be built after we have moved such a file aside. The Electron shell passes this
 * (electron-store takes the file name as `name`, overwrites `configName`, and has no
 * `projectName`; the schema is ours, so both processes validate alike):
 *   backend: ({ configName, projectName: _, ...rest }) =>
 *     new Store<SettingsData>({ ...rest, name: configName })
 */
export type BackendFactory = (options: BackendOptions) => SettingsBackend;

export interface OpenSettingsOptions {
  dir: string;
  fileName?: string;
  backend?: BackendFactory;
}

export interface SettingsStore {
  /** The in-memory copy, deep-frozen: change it through update(). */
  read(): SettingsData;
  /** Applies and writes now. Throws (and changes nothing) if the result is invalid. */
  update(mutate: (draft: SettingsData) => void): void;
  /**
   * Sets one provider's settings (undefined forgets them) and writes now. Only that record is
   * checked and copied (SPEC §3 "Scale": a change costs the changed provider); the others are
   * kept as they are. Throws (and changes nothing) if the record is invalid.
   */
  setProvider(providerId: string, settings: ProviderSettings | undefined): void;
  /** App-level messages for the status: a file moved aside, a write that failed. */
  notices(): string[];
  /**
   * Why the last write failed (the OS error), or undefined when it succeeded. A store that
   * could not be opened at all never writes: that is a failure too.
   */
  writeError(): string | undefined;
  /** Writes the current state again now, to learn whether the folder can be written; the OS error if not. */
  rewrite(): string | undefined;
  readonly path: string;
  /** The held leases (leases.json), written by the lease journal. */
  readonly leases: LeaseFile;
  /** Later changes stay in memory, so a late lease event during shutdown cannot throw. */
  close(): void;
}

const confBackend: BackendFactory = (options) => new Conf<SettingsData>(options);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

type Loaded =
  | { kind: "missing" }
  | { kind: "ok"; data: SettingsData; fromVersion: number; legacyLeases: StoredLease[] | undefined }
  | { kind: "bad"; problem: string; newer: boolean };

/** Ids named in the notice of a file over the cap; the rest are counted. */
const NAMED_LEFT_OUT = 5;

/**
 * A file with more providers than a host keeps (SPEC §3 "Scale": an edited or foreign file can
 * hold any number, and 10,001 made every status 1.5 MB): the first LIMITS.providers.max by id
 * are loaded, the rest left out, and the notice says which.
 */
function capProviders(data: SettingsData): { data: SettingsData; leftOut: string[] } {
  const ids = Object.keys(data.providers);
  if (ids.length <= LIMITS.providers.max) return { data, leftOut: [] };
  ids.sort();
  const kept = ids.slice(0, LIMITS.providers.max);
  return { data: { ...data, providers: Object.fromEntries(kept.map((id) => [id, data.providers[id]!])) }, leftOut: ids.slice(LIMITS.providers.max) };
}

function overCapNotice(total: number, leftOut: string[], aside: string): string {
  const named = leftOut.slice(0, NAMED_LEFT_OUT).join(", ");
  const more = leftOut.length > NAMED_LEFT_OUT ? ` and ${leftOut.length - NAMED_LEFT_OUT} more` : "";
  return (
    `Settings file held ${total} providers, more than the ${LIMITS.providers.max} a host keeps: the first ` +
    `${LIMITS.providers.max} by id are loaded and ${leftOut.length} were left out (${named}${more}). ` +
    `The whole file was kept at ${aside}.`
  );
}

function load(file: string): Loaded {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "bad", problem: errorText(error), newer: false };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: "bad", problem: errorText(error), newer: false };
  }
  const migrated = migrateSettings(raw);
  if (!migrated.ok) return { kind: "bad", problem: migrated.problem, newer: migrated.newer };
  const checked = checkSettings(migrated.data);
  if (!checked.ok) return { kind: "bad", problem: checked.problem, newer: false };
  return { kind: "ok", data: checked.data, fromVersion: migrated.fromVersion, legacyLeases: checked.legacyLeases };
}

export function openSettings(options: OpenSettingsOptions): SettingsStore {
  const { dir, fileName = "settings", backend: makeBackend = confBackend } = options;
  const file = path.resolve(dir, `${fileName}.json`);
  const notices: string[] = [];
  let current = deepFreeze(defaultSettings());
  let backend: SettingsBackend | undefined;
  let writeProblem: string | undefined;
  let lastWriteError: string | undefined;
  let openError: string | undefined;
  let backup: string | undefined; // where the pre-migration file was kept
  let legacyLeases: StoredLease[] | undefined; // held leases an older Headroom kept in this file

  const memoryOnly = (why: string) =>
    notices.push(`Settings cannot be saved to ${file} (${why}); changes last until Headroom exits.`);
  // If the migrated layout never reaches the disk, put the old file back so the next start
  // migrates it again instead of finding no settings at all.
  const restoreBackup = () => {
    try {
      if (backup && !fs.existsSync(file)) fs.renameSync(backup, file);
    } catch {
      // The backup still holds the data under its own name, beside the settings file.
    }
  };

  try {
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    removeLeftoverTemps(dir, fileName);
    const loaded = load(file);
    if (loaded.kind === "bad") {
      const what = loaded.newer ? "is from a newer Headroom" : "was corrupt";
      try {
        const aside = renameAside(file, fileName, "corrupt");
        notices.push(
          `Settings file ${what} (${loaded.problem}) and was moved aside to ${aside}; defaults are in use.`,
        );
      } catch (error) {
        // Not moved aside means conf would read it (and throw) or we would overwrite it: neither.
        notices.push(`Settings file ${what} (${loaded.problem}); defaults are in use.`);
        throw error;
      }
    } else if (loaded.kind === "ok") {
      const { data, leftOut } = capProviders(loaded.data);
      current = deepFreeze(data);
      legacyLeases = loaded.legacyLeases;
      if (leftOut.length > 0) {
        // The whole file stays beside the new one (nothing is lost to the cap), and is put back
        // like a migration's backup if the capped file cannot be written.
        backup = renameAside(file, fileName, "over-cap");
        notices.push(overCapNotice(Object.keys(loaded.data.providers).length, leftOut, backup));
      } else if (loaded.fromVersion < CURRENT_SCHEMA_VERSION) {
        // Keep the old layout as a backup (a migration is one-way), and let the backend open
        // on no file at all: it never has to parse a layout its schema was not written for.
        backup = renameAside(file, fileName, `v${loaded.fromVersion}`);
      }
    }
    backend = makeBackend({
      cwd: dir,
      configName: fileName,
      projectName: "headroom",
      schema: SETTINGS_JSON_SCHEMA,
      ajvOptions: SETTINGS_AJV_OPTIONS,
      configFileMode: FILE_MODE,
      clearInvalidConfig: false,
      watch: false,
      // Provider ids may contain dots; we only ever assign the whole store anyway.
      accessPropertiesByDotNotation: false,
    });
  } catch (error) {
    backend = undefined;
    openError = errorText(error);
    memoryOnly(openError);
    restoreBackup();
  }

  let closed = false;

  const writeNow = () => {
    if (!backend || closed) return;
    try {
      // A clone: conf may graft its `__internal__` key onto the value, and ajv may add to it.
      backend.store = structuredClone(current);
      writeProblem = undefined;
      lastWriteError = undefined;
    } catch (error) {
      lastWriteError = errorText(error);
      // The running host keeps working from memory; the status says the change is not on disk.
      writeProblem = `Settings could not be saved to ${file} (${errorText(error)}); recent changes last until Headroom exits.`;
    }
  };

  const apply = (mutate: (draft: SettingsData) => void) => {
    const draft = structuredClone(current);
    mutate(draft);
    const checked = checkSettings(draft);
    if (!checked.ok) throw new Error(`Settings not changed: ${checked.problem}`);
    current = deepFreeze(checked.data);
  };

  const applyProvider = (providerId: string, settings: ProviderSettings | undefined) => {
    const { [providerId]: _old, ...others } = current.providers;
    let providers: SettingsData["providers"] = others;
    if (settings !== undefined) {
      const checked = checkProviderSettings(providerId, settings);
      if (!checked.ok) throw new Error(`Settings not changed: ${checked.problem}`);
      providers = { ...others, [providerId]: deepFreeze(checked.data) };
    }
    current = Object.freeze({ ...current, providers: Object.freeze(providers) });
  };

  const leases = openLeaseFile(dir);
  // An older Headroom kept held leases here and wrote this file last: its list wins. They leave
  // this file only once leases.json holds them, so a crash in between moves them again.
  const leasesMoved = legacyLeases !== undefined && leases.write(legacyLeases) === undefined;
  if (backend && (backup || leasesMoved)) {
    writeNow();
    if (writeProblem) restoreBackup();
  }

  return {
    path: backend?.path ?? file,
    read: () => current,
    update(mutate) {
      apply(mutate);
      writeNow();
    },
    setProvider(providerId, settings) {
      applyProvider(providerId, settings);
      writeNow();
    },
    leases,
    notices: () => [...notices, ...(writeProblem ? [writeProblem] : []), ...leases.notices()],
    writeError: () => openError ?? lastWriteError,
    rewrite() {
      writeNow();
      return openError ?? lastWriteError;
    },
    close() {
      closed = true;
      leases.close();
    },
  };
}
