// One host per data folder (SPEC §5): two hosts on one folder would be two writers of the
// same settings and two pools enforcing "the" limit, each allowing it in full.
import fs from "node:fs";
import path from "node:path";
import { createExclusive, replaceAtomically } from "../data-folder/exclusive-file";
import { processStartTime } from "./process-start";

const LOCK_FILE_NAME = "host.lock";

export interface HostInfo {
  kind: "app" | "serve";
  url?: string;
}

/** What host.lock holds. */
interface LockRecord extends HostInfo {
  pid: number;
  startedAt: number; // epoch ms
}

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is alive all the same.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Start times are rounded to the second; a process that started more than this after the lock
// was written cannot be the one that wrote it.
const START_TIME_SLACK_MS = 1000;

/** The lock's writer still runs: its pid is alive and was not handed to a younger process. */
function holderRuns(holder: LockRecord): boolean {
  if (!isAlive(holder.pid)) return false;
  // A record without a time (startedAt 0) cannot be judged by age: treat it as live.
  if (holder.startedAt <= 0) return true;
  const processStart = processStartTime(holder.pid);
  return processStart === undefined || processStart <= holder.startedAt + START_TIME_SLACK_MS;
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const raw: unknown = JSON.parse(text);
    if (typeof raw !== "object" || raw === null) return undefined;
    const { pid, kind, url, startedAt } = raw as Record<string, unknown>;
    if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return undefined;
    if (kind !== "app" && kind !== "serve") return undefined;
    return {
      pid,
      kind,
      ...(typeof url === "string" ? { url } : {}),
      startedAt: typeof startedAt === "number" ? startedAt : 0,
    };
  } catch {
    return undefined;
  }
}

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
