// One host per data folder (SPEC §5): two hosts on one folder would be two writers of the
// same settings and two pools enforcing "the" limit, each allowing it in full.
import fs from "node:fs";
import path from "node:path";
import { createExclusive, replaceAtomically } from "../data-folder/exclusive-file";
import { holderRuns, LOCK_FILE_NAME, parseRecord, type HostInfo, type LockRecord } from "../data-folder/host-record";

export type { HostInfo } from "../data-folder/host-record";

export interface HostLock {
  readonly path: string;
  /** Rewrites the record (e.g. with the url once listening), if the lock is still ours. */
  update(info: HostInfo): void;
  /** Removes the lock file if it is still ours; later calls do nothing. */
  release(): void;
}

// Lock files this process holds. A record with our own pid that is not in here was left by
// an earlier process that had our pid (a container's pid 1 restarting): it is stale.
const heldHere = new Set<string>();

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function describe(record: LockRecord): string {
  return [record.kind, `pid ${record.pid}`, ...(record.url ? [record.url] : [])].join(", ");
}

const serialize = (record: LockRecord) => `${JSON.stringify(record)}\n`;

export function acquireHostLock(dir: string, info: HostInfo): HostLock | { refused: string } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.resolve(dir, LOCK_FILE_NAME);
  let record: LockRecord = { pid: process.pid, ...info, startedAt: Date.now() };

  // A few rounds: each lost race means someone else changed the file between our steps.
  for (let round = 0; round < 5; round++) {
    if (createExclusive(file, serialize(record))) return holdLock(file, record);
    const text = readText(file);
    if (text === undefined) continue; // released between our create and read: try again
    const holder = parseRecord(text);
    const holderIsLive =
      holder !== undefined &&
      (holder.pid === process.pid ? heldHere.has(file) : holderRuns(holder));
    if (holder && holderIsLive) {
      return {
        refused:
          `Another Headroom host (${describe(holder)}) is already using ${path.resolve(dir)}. ` +
          `Stop it first or pass a different --data-dir. ` +
          `If no Headroom is running, delete ${file}.`,
      };
    }
    // Stale (its process is gone, or its pid now names a younger process) or unreadable: take
    // it over. Remove it only if it is still the file we judged, so a host that replaced it
    // meanwhile keeps its lock.
    if (readText(file) === text) fs.rmSync(file, { force: true });
    record = { ...record, startedAt: Date.now() };
  }
  return { refused: `Could not take the lock ${file}: other Headroom hosts keep starting on ${path.resolve(dir)}.` };
}

function holdLock(file: string, initial: LockRecord): HostLock {
  heldHere.add(file);
  let record = initial;
  let released = false;
  const stillOurs = () => {
    const current = parseRecord(readText(file) ?? "");
    return current?.pid === record.pid && current.startedAt === record.startedAt;
  };
  return {
    path: file,
    update(info) {
      if (released || !stillOurs()) return;
      record = { pid: record.pid, ...info, startedAt: record.startedAt };
      replaceAtomically(file, serialize(record));
    },
    release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      if (stillOurs()) fs.rmSync(file, { force: true });
    },
  };
}
