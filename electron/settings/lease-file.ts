// Held API leases on disk (SPEC §1), in their own file beside the settings: `leases.json`, mode
// 0600. Every write is a complete temp file renamed into place, so a kill -9 never leaves half
// of it. It is not fsynced: the page cache outlives a killed process, and only a machine crash
// can lose a recent write (docs/durability.md). Settings stay in settings.json, fsynced by conf.
//
// The old file is removed before the rename rather than replaced by it: ext4 (auto_da_alloc)
// starts writing a file renamed over another back to disk at once, and the next write then
// waits for that, milliseconds on a busy disk, in every admission's answer. A host killed
// between the two steps leaves no leases.json and a complete temp file, which the next start
// renames into place.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { checkStored } from "../../shared/check";
import { StoredLease } from "../../shared/schemas";
import { FILE_MODE, errorText, removeLeftoverTemps, renameAside } from "./data-files";

const LEASE_FILE_VERSION = 1;

const LeasesFile = Type.Object(
  {
    schemaVersion: Type.Integer({
      minimum: LEASE_FILE_VERSION,
      maximum: LEASE_FILE_VERSION,
      allowed: `the integer ${LEASE_FILE_VERSION}`,
    }),
    leases: Type.Array(StoredLease, { allowed: "a list" }),
  },
  { allowed: "a JSON object" },
);

export interface LeaseFile {
  readonly path: string;
  /** The leases last handed to write() (or read at open): what a restart restores. */
  read(): readonly StoredLease[];
  /**
   * Writes `leases` now unless the file already holds exactly them; the OS error when it could
   * not. A failure leaves the previous file whole and stays reported until a write succeeds.
   */
  write(leases: readonly StoredLease[]): string | undefined;
  writeError(): string | undefined;
  /** For the status: a file moved aside, a write that failed. */
  notices(): string[];
  /** Later writes are skipped: a late lease event during shutdown must not throw or write. */
  close(): void;
}

type Loaded = { kind: "missing" } | { kind: "ok"; leases: StoredLease[] } | { kind: "bad"; problem: string; newer: boolean };

function load(file: string): Loaded {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "bad", problem: errorText(error), newer: false };
  }
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === "number" && version > LEASE_FILE_VERSION) {
    return { kind: "bad", newer: true, problem: `schemaVersion ${version} was written by a newer Headroom` };
  }
  const checked = checkStored(LeasesFile, raw, "leases file");
  return checked.ok ? { kind: "ok", leases: checked.value.leases } : { kind: "bad", problem: checked.message, newer: false };
}

function removeIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Left for the next start to remove, with the other temp files.
  }
}

/**
 * With no leases file, the newest temp file that holds a whole, valid list is the one a killed
 * host had written completely and was renaming into place: it becomes the file. (A temp file
 * cut short by the kill never has its old file removed first, so it is only ever a leftover.)
 */
function adoptCompleteTemp(dir: string, fileName: string, file: string): void {
  if (fs.existsSync(file)) return;
  const prefix = `${fileName}.json.tmp-`;
  const temps = fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const complete = temps.find((temp) => load(temp).kind === "ok");
  if (complete !== undefined) fs.renameSync(complete, file);
}

/**
 * Opens `<dir>/<fileName>.json`; never throws. A file that cannot be trusted is moved aside
 * with a notice and no lease is restored. `dir` exists (the settings store made it).
 */
export function openLeaseFile(dir: string, fileName = "leases"): LeaseFile {
  const file = path.resolve(dir, `${fileName}.json`);
  // SPEC §5: a fresh temp file, created exclusively under a random name, so a symlink planted in
  // the folder is never followed (nor a file of that name truncated).
  const openTemp = (): { fd: number; path: string } => {
    const tempPath = `${file}.tmp-${process.pid}-${randomBytes(8).toString("hex")}`;
    return { fd: fs.openSync(tempPath, "wx", FILE_MODE), path: tempPath };
  };
  const notices: string[] = [];
  let current: readonly StoredLease[] = [];
  let written: string | undefined; // the text the file holds, when we know it
  let lastError: string | undefined;
  let closed = false;

  try {
    adoptCompleteTemp(dir, fileName, file);
    removeLeftoverTemps(dir, fileName);
    const loaded = load(file);
    if (loaded.kind === "ok") {
      current = loaded.leases;
      written = JSON.stringify(current);
    } else if (loaded.kind === "bad") {
      const what = loaded.newer ? "is from a newer Headroom" : "was corrupt";
      const aside = renameAside(file, fileName, "corrupt");
      notices.push(`Held leases file ${what} (${loaded.problem}) and was moved aside to ${aside}; no lease was restored.`);
    }
  } catch (error) {
    // Not moved aside: the first write replaces it, or fails and says why.
    notices.push(`Held leases file ${file} could not be read (${errorText(error)}); no lease was restored.`);
  }

  // Creating the temp file is the dearest step of a write: the next one is created ahead, once
  // the answers the last write held back have gone out, and kept open, empty, until needed.
  let spare: { fd: number; path: string } | undefined;
  let preparing = false;
  const prepareSpare = () => {
    preparing = false;
    if (spare !== undefined || closed) return;
    try {
      spare = openTemp();
    } catch {
      // The next write creates it, and reports what stops it.
    }
  };
  const dropSpare = () => {
    if (spare === undefined) return;
    fs.closeSync(spare.fd);
    removeQuietly(spare.path);
    spare = undefined;
  };

  // A write that failed between removing the old file and the rename left its temp file as the
  // only copy: it goes into place before the next write.
  let onlyCopyIn: string | undefined;
  const writeText = (text: string) => {
    let complete = false;
    let temp: string | undefined;
    try {
      if (onlyCopyIn !== undefined) {
        fs.renameSync(onlyCopyIn, file);
        onlyCopyIn = undefined;
      }
      const opened = spare ?? openTemp();
      spare = undefined;
      temp = opened.path;
      const fd = opened.fd;
      try {
        fs.writeFileSync(fd, `{"schemaVersion":${LEASE_FILE_VERSION},"leases":${text}}\n`);
      } finally {
        fs.closeSync(fd);
      }
      complete = true;
      removeIfThere(file);
      fs.renameSync(temp, file);
      written = text;
      lastError = undefined;
      if (!preparing) {
        preparing = true;
        setImmediate(prepareSpare);
      }
    } catch (error) {
      lastError = errorText(error);
      // A complete temp file with no leases.json beside it is what the next start restores from.
      if (onlyCopyIn !== undefined || temp === undefined) return;
      if (!complete || fs.existsSync(file)) removeQuietly(temp);
      else onlyCopyIn = temp;
    }
  };

  return {
    path: file,
    read: () => current,
    write(leases) {
      current = leases;
      if (closed) return undefined;
      const text = JSON.stringify(leases);
      // Proxy traffic churns only leases that are never kept: an unchanged list is not worth a write.
      if (text !== written || lastError !== undefined) writeText(text);
      return lastError;
    },
    writeError: () => lastError,
    notices: () =>
      lastError === undefined
        ? [...notices]
        : [...notices, `Held leases could not be saved to ${file} (${lastError}); new admissions are refused until it can be written.`],
    close() {
      closed = true;
      dropSpare();
    },
  };
}
