// What host.lock says (SPEC §5): which process holds the data folder, and once it listens, the
// API's address. The host writes it (electron/host/host-lock.ts); clients read it to find a
// host that is really running there, so a token is never sent to whatever else answers on a
// port (SPEC §10: `headroom statusline`).
import fs from "node:fs";
import path from "node:path";
import { processStartTime } from "./process-start";

export const LOCK_FILE_NAME = "host.lock";

export interface HostInfo {
  kind: "app" | "serve";
  url?: string;
}

/** What host.lock holds. */
export interface LockRecord extends HostInfo {
  pid: number;
  startedAt: number; // epoch ms
}

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
export function holderRuns(holder: LockRecord): boolean {
  if (!isAlive(holder.pid)) return false;
  // A record without a time (startedAt 0) cannot be judged by age: treat it as live.
  if (holder.startedAt <= 0) return true;
  const processStart = processStartTime(holder.pid);
  return processStart === undefined || processStart <= holder.startedAt + START_TIME_SLACK_MS;
}

export function parseRecord(text: string): LockRecord | undefined {
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

/** The API address of the host running on `dir`, or undefined: no lock, a dead holder, not listening yet. */
export function runningHostUrl(dir: string): string | undefined {
  let text: string;
  try {
    // A lock is a few dozen bytes; anything much larger is not one (and is not read whole).
    const fd = fs.openSync(path.join(dir, LOCK_FILE_NAME), fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      if (!fs.fstatSync(fd).isFile()) return undefined;
      const buffer = Buffer.alloc(4096);
      text = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const record = parseRecord(text);
  if (!record?.url || !holderRuns(record)) return undefined;
  try {
    const url = new URL(record.url);
    return url.protocol === "http:" ? record.url.replace(/\/+$/, "") : undefined;
  } catch {
    return undefined;
  }
}
