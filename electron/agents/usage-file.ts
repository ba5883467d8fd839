// The usage ledger on disk: `<dataDir>/usage.json`, mode 0600, replaced whole through the same
// exclusive temp file + rename the host's small files use, so a kill -9 leaves the last complete
// write. Written at most every `everyMs` (5 s) while counts change, and at shutdown: a killed
// host loses at most those last seconds of counts (SPEC §9).
import fs from "node:fs";
import path from "node:path";
import type { Clock, TimerHandle } from "../engine/clock";
import { replaceAtomically } from "../data-folder/exclusive-file";
import { errorText } from "../settings/data-files";
import type { StoredSeries } from "./usage-ledger";

const USAGE_FILE_VERSION = 1;
const USAGE_WRITE_EVERY_MS = 5_000;

const count = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const dollars = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;
const name = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= 300;

/** One stored series, or undefined when any field is not what we write (a hand-edited or damaged row). */
function series(raw: unknown): StoredSeries | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const row = raw as Record<string, unknown>;
  const tokens = row.tokens as Record<string, unknown> | null | undefined;
  if (!count(row.hour) || !name(row.providerId) || !name(row.agent) || !name(row.model)) return undefined;
  if (!count(row.requests) || !count(row.rateLimited) || !count(row.errors) || tokens === null || typeof tokens !== "object") return undefined;
  const { input, output, cacheRead, cacheWrite } = tokens;
  if (!count(input) || !count(output) || !count(cacheRead) || !count(cacheWrite)) return undefined;
  // Cost came later (SPEC §9 "What it cost"): rows written before it count as unpriced nothing.
  const { costUsd = 0, unpriced = 0 } = row;
  if (!dollars(costUsd) || !count(unpriced)) return undefined;
  return { hour: row.hour, providerId: row.providerId, agent: row.agent, model: row.model, requests: row.requests, rateLimited: row.rateLimited, errors: row.errors, tokens: { input, output, cacheRead, cacheWrite }, costUsd, unpriced };
}

export interface UsageFile {
  readonly path: string;
  /** What the file held at open; a notice when it could not be read. */
  readonly loaded: StoredSeries[];
  readonly notice: string | undefined;
  /** Counts changed: write within `everyMs`. */
  changed(): void;
  /** Writes now if anything changed since the last write; later changes are kept in memory only. */
  close(): void;
  writeError(): string | undefined;
}

export function openUsageFile(dir: string, read: () => StoredSeries[], clock: Clock, everyMs = USAGE_WRITE_EVERY_MS): UsageFile {
  const file = path.join(dir, "usage.json");
  let loaded: StoredSeries[] = [];
  let notice: string | undefined;
  try {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as { schemaVersion?: unknown; series?: unknown };
    if (raw.schemaVersion !== USAGE_FILE_VERSION || !Array.isArray(raw.series)) throw new Error(`not a usage file of version ${USAGE_FILE_VERSION}`);
    loaded = raw.series.map(series).filter((one): one is StoredSeries => one !== undefined);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") notice = `Usage counts in ${file} could not be read (${errorText(error)}); counting starts afresh.`;
  }
  let dirty = false;
  let timer: TimerHandle | undefined;
  let closed = false;
  let lastError: string | undefined;
  const write = () => {
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    try {
      replaceAtomically(file, `${JSON.stringify({ schemaVersion: USAGE_FILE_VERSION, series: read() })}\n`);
      lastError = undefined;
    } catch (error) {
      lastError = errorText(error);
      dirty = true; // tried again with the next change
    }
  };
  return {
    path: file,
    loaded,
    notice,
    changed() {
      dirty = true;
      if (closed || timer !== undefined) return;
      timer = clock.setTimeout(write, everyMs);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      write();
    },
    writeError: () => lastError,
  };
}
