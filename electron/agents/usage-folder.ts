// Opening the usage folder: the hour files and days.json read back, a version-1 usage.json
// migrated once, and anything that cannot be trusted (corrupt, truncated, the wrong shape, a
// folder, a pipe, a link) moved aside with a notice in the status, as settings.json is. Only
// regular files are read, each bounded in size (data-folder/regular-file.ts).
import fs from "node:fs";
import path from "node:path";
import { moveAside, readRegularFile } from "../data-folder/regular-file";
import { errorText } from "../settings/data-files";
import { hourOfFileName, parseDaysFile, parseHourFile, parseVersion1, type Parsed } from "./usage-file-shapes";
import type { UsageDays } from "./usage-days";
import { hourOf, HOUR_MS, KEEP_HOURS, MAX_HOUR_BYTES, type StoredSeries, type UsageLedger } from "./usage-ledger";

/** An hour file is at most the hours' whole byte bound; all of them together at most twice that. */
const MAX_HOUR_FILE_BYTES = MAX_HOUR_BYTES + 512 * 1024;
const MAX_HOURS_READ_BYTES = 2 * MAX_HOUR_BYTES;
const MAX_DAYS_FILE_BYTES = 1024 * 1024;
/** Version 1 held up to 36 MB a provider at its cap: read once, so a larger bound. */
const MAX_V1_FILE_BYTES = 128 * 1024 * 1024;

type Read<T> = { ok: true; parsed: Parsed<T> } | { ok: false };

export function readUsageFolder(
  dataDir: string,
  dir: string,
  ledger: UsageLedger,
  days: UsageDays,
  now: number,
  writeNowSync: () => void,
): { notices: string[] } {
  const notices: string[] = [];

  /** Reads and parses one file; moves it aside (with a notice) when it cannot be trusted whole. */
  const read = <T>(file: string, maxBytes: number, parse: (text: string) => Parsed<T>, lost: string): Read<T> => {
    try {
      const got = readRegularFile(file, maxBytes);
      if (got.kind === "missing") return { ok: false };
      let problem: string;
      if (got.kind === "text") {
        try {
          const parsed = parse(got.text);
          if (parsed.badRows === 0) return { ok: true, parsed };
          const aside = moveAside(file, "bad");
          notices.push(`Usage counts file ${file} had ${parsed.badRows} unreadable rows; the rest were kept and the file was moved aside to ${aside}.`);
          return { ok: true, parsed };
        } catch (error) {
          problem = errorText(error);
        }
      } else problem = got.problem;
      const aside = moveAside(file, "bad");
      notices.push(`Usage counts file ${file} could not be read (${problem}) and was moved aside to ${aside}; ${lost}.`);
    } catch (error) {
      notices.push(`Usage counts file ${file} could not be read (${errorText(error)}); ${lost}.`);
    }
    return { ok: false };
  };

  try {
    const folder = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (folder && !folder.isDirectory()) {
      const aside = moveAside(dir, "bad");
      notices.push(`Usage counts folder ${dir} was not a folder and was moved aside to ${aside}; counting starts afresh.`);
    }
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    notices.push(`Usage counts folder ${dir} could not be made (${errorText(error)}); counts are kept in memory only.`);
    return { notices };
  }

  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    notices.push(`Usage counts folder ${dir} could not be read (${errorText(error)}); counting starts afresh.`);
    names = [];
  }
  const oldest = hourOf(now) - (KEEP_HOURS - 1) * HOUR_MS;
  const hourFiles: { name: string; hour: number }[] = [];
  for (const name of names) {
    // A write killed midway leaves its temp file; we hold the data folder's lock, so none is in flight.
    if (name.includes(".tmp-")) removeFile(path.join(dir, name));
    const hour = hourOfFileName(name);
    if (hour === undefined) continue;
    if (hour < oldest) removeFile(path.join(dir, name));
    else hourFiles.push({ name, hour });
  }

  // Newest first, so a folder stuffed past the bound keeps the recent hours.
  hourFiles.sort((a, b) => b.hour - a.hour);
  const restored: StoredSeries[] = [];
  const rewrite: number[] = [];
  let readBytes = 0;
  let skipped = 0;
  for (const { name, hour } of hourFiles) {
    const file = path.join(dir, name);
    if (readBytes > MAX_HOURS_READ_BYTES) {
      try {
        moveAside(file, "bad");
      } catch {
        // Left in place: read with the rest of the folder next time, under the same bound.
      }
      skipped++;
      continue;
    }
    const got = read(file, MAX_HOUR_FILE_BYTES, (text) => ((readBytes += text.length), parseHourFile(text, hour)), "that hour's counts are lost");
    if (!got.ok) continue;
    for (const series of got.parsed.value) restored.push(series);
    if (got.parsed.badRows > 0) rewrite.push(hour);
  }
  if (skipped > 0) notices.push(`${skipped} older usage hour files in ${dir} were moved aside unread: together the files held more than ${MAX_HOURS_READ_BYTES} bytes.`);
  ledger.restore(restored, now);
  for (const hour of rewrite) ledger.touch(hour);

  const daysFile = path.join(dir, "days.json");
  const gotDays = read(daysFile, MAX_DAYS_FILE_BYTES, parseDaysFile, "the per-day counts start afresh");
  if (gotDays.ok) {
    days.restore(gotDays.parsed.value);
    if (gotDays.parsed.badRows > 0) days.touch();
  }

  const v1 = path.join(dataDir, "usage.json");
  const gotV1 = read(v1, MAX_V1_FILE_BYTES, parseVersion1, "its counts are not restored");
  if (gotV1.ok) {
    const hours = new Set(gotV1.parsed.value.map((series) => hourOf(series.hour)));
    ledger.restore(gotV1.parsed.value, now);
    for (const hour of hours) ledger.touch(hour);
    try {
      writeNowSync();
    } catch (error) {
      for (const hour of hours) ledger.touch(hour);
      notices.push(`Usage counts from ${v1} could not be written to ${dir} yet (${errorText(error)}); they are kept and written with the next counts.`);
    }
    // Moved aside even when the write failed: read twice, the old counts would count twice.
    try {
      if (fs.existsSync(v1)) moveAside(v1, "migrated");
    } catch (error) {
      notices.push(`Usage counts file ${v1} could not be moved aside after it was read (${errorText(error)}).`);
    }
  }
  return { notices };
}

/** A leftover of ours; something else of that name (a folder?) is left alone. */
function removeFile(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Not a file: the hour's next write fails and says why.
  }
}
