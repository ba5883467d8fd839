// What the settings file and the held-leases file share on disk: owner-only modes, moving a
// file we cannot trust aside, and removing temp files a killed write left behind.
import fs from "node:fs";
import path from "node:path";

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

// 2026-11-29T09:10:11.123Z -> 2026-11-29T09-10-11-123Z (":" is not allowed on Windows).
const fileStamp = () => new Date().toISOString().replace(/[:.]/g, "-");

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Renames `file` to `<name>.<label>-<timestamp>.json` beside it; returns the new path. */
export function renameAside(file: string, fileName: string, label: string): string {
  const base = path.join(path.dirname(file), `${fileName}.${label}-${fileStamp()}`);
  let target = `${base}.json`;
  // rename() silently replaces an existing file: never lose an earlier moved-aside copy.
  for (let n = 2; fs.existsSync(target); n++) target = `${base}-${n}.json`;
  fs.renameSync(file, target);
  // The copy holds what the file held (upstream URLs, lease ids): owner-only, like the file
  // itself, whatever mode an older Headroom or an editor left on it.
  fs.chmodSync(target, FILE_MODE);
  return target;
}

/**
 * Removes `<name>.json.tmp-*` files: every write goes through a temp file beside its target and
 * is renamed into place, so a host killed mid-write leaves one behind. Called while holding the
 * data folder's lock, so no other writer's temp file can be in flight.
 */
export function removeLeftoverTemps(dir: string, fileName: string): void {
  const prefix = `${fileName}.json.tmp-`;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      // Not a file we wrote (a folder?): left alone; a write that needs its name fails and says why.
    }
  }
}
