// What the usage files hold, and reading it back without trusting it: an hour file
// (`usage/2026-12-06T23.json`, UTC), the per-day counter (`usage/days.json`) and the single
// `usage.json` of version 1 that they replace. Names read back are tamed like names from the
// wire (the file is in a folder other local processes may write to); counts past 2^53 are
// held at Number.MAX_SAFE_INTEGER rather than the row being dropped.
import { tame } from "../../shared/tame";
import type { DayRow } from "./usage-days";
import { HOUR_MS, type StoredRow, type StoredSeries } from "./usage-ledger";

export const USAGE_FILES_VERSION = 2;
const V1 = 1;

const HOUR_FILE = /^(\d{4}-\d{2}-\d{2}T\d{2})\.json$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `2026-12-06T23.json` for the hour starting 2026-12-06 23:00 UTC. */
export const hourFileName = (hour: number) => `${new Date(hour).toISOString().slice(0, 13)}.json`;

/** The hour an hour file's name stands for, or undefined when the name is not one. */
export function hourOfFileName(name: string): number | undefined {
  const match = HOUR_FILE.exec(name);
  if (!match) return undefined;
  const hour = Date.parse(`${match[1]}:00:00.000Z`);
  return Number.isFinite(hour) && hour % HOUR_MS === 0 ? hour : undefined;
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === "object" && !Array.isArray(value);

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? Math.min(value, Number.MAX_SAFE_INTEGER) : undefined;
const dollars = (value: unknown): number | undefined =>
  value === undefined ? 0 : typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(value, Number.MAX_SAFE_INTEGER) : undefined;
const name = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 && value.length <= 1_000 ? tame(value) : undefined);

/** The counts of a row, or undefined when any is not what we write. */
function counts(row: Fields) {
  const tokens = row.tokens;
  if (!isObject(tokens)) return undefined;
  const values = {
    requests: count(row.requests),
    rateLimited: count(row.rateLimited),
    errors: count(row.errors),
    input: count(tokens.input),
    output: count(tokens.output),
    cacheRead: count(tokens.cacheRead),
    cacheWrite: count(tokens.cacheWrite),
    costUsd: dollars(row.costUsd),
    unpriced: row.unpriced === undefined ? 0 : count(row.unpriced),
  };
  if (Object.values(values).some((value) => value === undefined)) return undefined;
  const { requests, rateLimited, errors, input, output, cacheRead, cacheWrite, costUsd, unpriced } = values as Record<keyof typeof values, number>;
  return { requests, rateLimited, errors, tokens: { input, output, cacheRead, cacheWrite }, costUsd, unpriced };
}

/** The optional project: absent, or a name. */
function project(row: Fields): { project?: string } | undefined {
  if (row.project === undefined) return {};
  const value = name(row.project);
  return value === undefined ? undefined : { project: value };
}

function storedRow(raw: unknown): StoredRow | undefined {
  if (!isObject(raw)) return undefined;
  const agent = name(raw.agent);
  const model = name(raw.model);
  const folder = project(raw);
  const values = counts(raw);
  if (agent === undefined || model === undefined || folder === undefined || values === undefined) return undefined;
  return { agent, model, ...folder, ...values };
}

function dayRow(raw: unknown): DayRow | undefined {
  if (!isObject(raw)) return undefined;
  const agent = name(raw.agent);
  const folder = project(raw);
  const values = counts(raw);
  if (agent === undefined || folder === undefined || values === undefined) return undefined;
  return { agent, ...folder, ...values };
}

/** Rows that read, and how many did not (the file is then kept aside for the user). */
export interface Parsed<T> {
  value: T;
  badRows: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
}

function versioned(text: string, version: number, field: string): Fields {
  const raw = parseJson(text);
  if (!isObject(raw)) throw new Error("it does not hold a JSON object");
  if (raw.schemaVersion !== version) throw new Error(`schemaVersion is ${JSON.stringify(raw.schemaVersion)}, not ${version}`);
  if (!(field in raw)) throw new Error(`it has no ${field}`);
  return raw;
}

/** Throws (with the problem in words) when the whole file is not an hour file for `hour`. */
export function parseHourFile(text: string, hour: number): Parsed<StoredSeries[]> {
  const raw = versioned(text, USAGE_FILES_VERSION, "providers");
  if (raw.hour !== hour) throw new Error(`it holds hour ${JSON.stringify(raw.hour)}, not ${hour} as its name says`);
  if (!isObject(raw.providers)) throw new Error("providers is not an object");
  const value: StoredSeries[] = [];
  let badRows = 0;
  for (const [id, rows] of Object.entries(raw.providers)) {
    const providerId = name(id);
    if (providerId === undefined || !Array.isArray(rows)) {
      badRows++;
      continue;
    }
    for (const one of rows) {
      const row = storedRow(one);
      if (row) value.push({ hour, providerId, ...row });
      else badRows++;
    }
  }
  return { value, badRows };
}

export function parseDaysFile(text: string): Parsed<Record<string, Record<string, DayRow[]>>> {
  const raw = versioned(text, USAGE_FILES_VERSION, "days");
  if (!isObject(raw.days)) throw new Error("days is not an object");
  const value: Record<string, Record<string, DayRow[]>> = {};
  let badRows = 0;
  for (const [date, providers] of Object.entries(raw.days)) {
    if (!DATE.test(date) || !isObject(providers)) {
      badRows++;
      continue;
    }
    const day: Record<string, DayRow[]> = (value[date] = {});
    for (const [id, rows] of Object.entries(providers)) {
      const providerId = name(id);
      if (providerId === undefined || !Array.isArray(rows)) {
        badRows++;
        continue;
      }
      day[providerId] = [];
      for (const one of rows) {
        const row = dayRow(one);
        if (row) day[providerId].push(row);
        else badRows++;
      }
    }
  }
  return { value, badRows };
}

/** The version-1 `usage.json`: `{ schemaVersion: 1, series: [{ hour, providerId, agent, model, … }] }`. */
export function parseVersion1(text: string): Parsed<StoredSeries[]> {
  const raw = versioned(text, V1, "series");
  if (!Array.isArray(raw.series)) throw new Error("series is not a list");
  const value: StoredSeries[] = [];
  let badRows = 0;
  for (const one of raw.series) {
    const row = storedRow(one);
    const hour = isObject(one) ? count(one.hour) : undefined;
    const providerId = isObject(one) ? name(one.providerId) : undefined;
    if (row && hour !== undefined && providerId !== undefined) value.push({ hour, providerId, ...row });
    else badRows++;
  }
  return { value, badRows };
}
