// The usage counts on disk (SPEC §9): `<dataDir>/usage/`, one file per UTC hour
// (`2026-12-06T23.json`) and `days.json` for the per-day counter, mode 0600. One usage.json
// rewritten whole stalled the event loop 737–855 ms a write at its cap (36 MB a provider); now
// only the hours that changed since the last write are written, each a few hundred KB at most,
// and the bytes go out through fs/promises. Written at most every `everyMs` (5 s) while counts
// change and at shutdown: a killed host loses at most those last seconds of counts.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Clock, TimerHandle } from "../engine/clock";
import { errorText } from "../settings/data-files";
import { hourFileName, USAGE_FILES_VERSION } from "./usage-file-shapes";
import { readUsageFolder } from "./usage-folder";
import type { UsageDays } from "./usage-days";
import type { UsageLedger } from "./usage-ledger";

const USAGE_WRITE_EVERY_MS = 5_000;
const FILE_MODE = 0o600;

export interface UsageFiles {
  /** The folder the files are in. */
  readonly dir: string;
  /** Files moved aside at open, a write that failed. */
  notices(): string[];
  /** Counts changed: write within `everyMs`. */
  changed(): void;
  /** Resolves when no write is under way (tests, the bench). */
  idle(): Promise<void>;
  /** Writes what changed, now and synchronously; later changes are kept in memory only. */
  close(): void;
}

const tempOf = (target: string) => `${target}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;

export function openUsageFiles(dataDir: string, ledger: UsageLedger, days: UsageDays, clock: Clock, everyMs = USAGE_WRITE_EVERY_MS): UsageFiles {
  const dir = path.join(dataDir, "usage");
  const daysFile = path.join(dir, "days.json");
  const hourFile = (hour: number) => path.join(dir, hourFileName(hour));
  const hourText = (hour: number) => {
    const providers = ledger.hourRows(hour);
    return providers && `${JSON.stringify({ schemaVersion: USAGE_FILES_VERSION, hour, providers })}\n`;
  };
  const daysText = (rows: ReturnType<UsageDays["takeChanges"]>) => rows && `${JSON.stringify({ schemaVersion: USAGE_FILES_VERSION, days: rows })}\n`;

  let closed = false;
  let timer: TimerHandle | undefined;
  let writing: Promise<void> | undefined;
  let again = false;
  let lastError: string | undefined;
  const inFlight = new Set<number>();
  let daysInFlight = false;

  /** Everything that changed, synchronously: at open (a migration) and at shutdown. */
  const writeNowSync = () => {
    for (const hour of inFlight) ledger.touch(hour);
    if (daysInFlight) days.touch();
    const { hours, removed } = ledger.takeChanges();
    let failure: unknown;
    for (const hour of removed) {
      try {
        fs.rmSync(hourFile(hour), { force: true });
      } catch (error) {
        failure ??= error;
      }
    }
    const writes: [string, string | undefined][] = hours.map((hour) => [hourFile(hour), hourText(hour)]);
    writes.push([daysFile, daysText(days.takeChanges())]);
    for (const [file, text] of writes) {
      if (text === undefined) continue;
      const temp = tempOf(file);
      try {
        fs.writeFileSync(temp, text, { flag: "wx", mode: FILE_MODE });
        fs.renameSync(temp, file);
      } catch (error) {
        failure ??= error; // the other files are still written
      } finally {
        fs.rmSync(temp, { force: true });
      }
    }
    if (failure !== undefined) throw failure;
  };

  const opened = readUsageFolder(dataDir, dir, ledger, days, clock.now(), writeNowSync);

  /** The bytes go out on libuv's threads; the rename is one quick call made here, so a shutdown's write is never overtaken. */
  const writeAsync = async (file: string, text: string): Promise<void> => {
    const temp = tempOf(file);
    try {
      const handle = await fsp.open(temp, "wx", FILE_MODE); // O_EXCL: a planted link or file is never followed
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      if (!closed) fs.renameSync(temp, file); // closed: close() wrote this file's latest counts itself
    } finally {
      await fsp.rm(temp, { force: true });
    }
  };

  const flush = async (): Promise<void> => {
    const { hours, removed } = ledger.takeChanges();
    const dayRows = days.takeChanges();
    for (const hour of hours) inFlight.add(hour);
    daysInFlight = dayRows !== undefined;
    let failure: unknown;
    for (const hour of removed) await fsp.rm(hourFile(hour), { force: true }).catch((error: unknown) => (failure = error));
    // One hour at a time: each stringify is a few ms at most, and other work runs between them.
    for (const hour of hours) {
      const text = hourText(hour);
      try {
        if (text !== undefined && !closed) await writeAsync(hourFile(hour), text);
      } catch (error) {
        failure = error;
        ledger.touch(hour); // tried again with the next write
      } finally {
        inFlight.delete(hour);
      }
    }
    const text = daysText(dayRows);
    try {
      if (text !== undefined && !closed) await writeAsync(daysFile, text);
    } catch (error) {
      failure = error;
      days.touch();
    } finally {
      daysInFlight = false;
    }
    lastError = failure === undefined ? undefined : errorText(failure);
  };

  const changed = () => {
    if (closed || timer !== undefined) return;
    timer = clock.setTimeout(() => {
      timer = undefined;
      if (writing) {
        again = true; // one write at a time; the next follows this one
        return;
      }
      writing = flush().finally(() => {
        writing = undefined;
        if (again) {
          again = false;
          changed();
        }
      });
    }, everyMs);
  };

  return {
    dir,
    notices: () => [...opened.notices, ...(lastError === undefined ? [] : [`Usage counts could not be saved to ${dir} (${lastError}).`])],
    changed,
    idle: async () => {
      while (writing) await writing;
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      try {
        writeNowSync();
      } catch (error) {
        lastError = errorText(error);
      }
    },
  };
}
