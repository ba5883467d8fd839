// The per-day counter (SPEC §9 "What it cost"): per host-local date, provider, agent and project,
// the tokens by kind, cost and unpriced requests. Counted on its own, not from the hourly
// buckets, because a +5:30 zone's midnight is not an hour's start. Kept 8 dates (`days=N` is
// 1..8); bounded like the hours: at most 1,000 series per provider and day and MAX_DAY_BYTES in
// all, the oldest dates compacted first and the rest counted as `other`. Pure: times and the
// date of a time come in.
import { addInto, copyCount, countOf, emptyCount, OTHER, seriesBytes, tokenTotal, type UsageCount } from "./usage-count";
import type { UsageEvent } from "./usage-ledger";

const KEEP_DAYS = 8;
const MAX_SERIES_PER_PROVIDER_DAY = 1_000;
const KEPT_WHEN_COMPACTED = 10;
const MAX_DAY_BYTES = 512 * 1024;

/** The last local day asked about: every answer counted asks, and it is nearly always today. */
let day = { from: 0, until: 0, date: "" };

/** The host's local date of a time, `YYYY-MM-DD`. */
function localDate(at: number): string {
  if (at >= day.from && at < day.until) return day.date;
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, "0");
  const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
  day = { from: new Date(y, m, d).getTime(), until: new Date(y, m, d + 1).getTime(), date: `${y}-${two(m + 1)}-${two(d)}` };
  return day.date;
}

/** One series of one day, as days.json holds it under its date and provider. */
export interface DayRow extends UsageCount {
  agent: string;
  project?: string;
}

interface DaySeries extends DayRow {
  bytes: number;
}

const key = (agent: string, project = "") => `${agent}\u0000${project}`;

export class UsageDays {
  /** date → provider → agent\0project → counts. */
  private readonly days = new Map<string, Map<string, Map<string, DaySeries>>>();
  private bytes = 0;
  private changed = false;
  private readonly compacted = new Map<string, 1 | 2>();

  constructor(
    private readonly dateOf: (at: number) => string = localDate,
    private readonly maxSeries = MAX_SERIES_PER_PROVIDER_DAY,
    private readonly maxBytes = MAX_DAY_BYTES,
  ) {}

  add(at: number, event: UsageEvent): void {
    this.addCount(this.dateOf(at), event.providerId, event.agent, event.project, countOf(event));
    this.changed = true;
    this.prune();
  }

  /** Rows read back from days.json (not written again unless something changes). */
  restore(days: Record<string, Record<string, DayRow[]>>): void {
    for (const [date, providers] of Object.entries(days)) {
      for (const [providerId, rows] of Object.entries(providers)) {
        for (const row of rows) this.addCount(date, providerId, row.agent, row.project, row);
      }
    }
    this.prune();
  }

  /** A provider's counts on one date, all agents together: what a daily budget reads. */
  total(providerId: string, date: string): UsageCount {
    const sum = emptyCount();
    for (const series of this.days.get(date)?.get(providerId)?.values() ?? []) addInto(sum, series);
    return sum;
  }

  touch(): void {
    this.changed = true;
  }

  /** The file's `days` when something changed since the last call, else undefined. */
  takeChanges(): Record<string, Record<string, DayRow[]>> | undefined {
    if (!this.changed) return undefined;
    this.changed = false;
    const out: Record<string, Record<string, DayRow[]>> = {};
    for (const [date, providers] of this.days) {
      const day: Record<string, DayRow[]> = (out[date] = {});
      for (const [providerId, seriesOf] of providers) {
        day[providerId] = [...seriesOf.values()].map((one) => ({
          agent: one.agent,
          ...(one.project === undefined ? {} : { project: one.project }),
          ...copyCount(one),
        }));
      }
    }
    return out;
  }

  private addCount(date: string, providerId: string, agent: string, project: string | undefined, count: UsageCount): void {
    let providers = this.days.get(date);
    if (!providers) this.days.set(date, (providers = new Map()));
    let seriesOf = providers.get(providerId);
    if (!seriesOf) providers.set(providerId, (seriesOf = new Map()));
    let one = seriesOf.get(key(agent, project));
    if (!one) {
      const bytes = seriesBytes(providerId, agent, project ?? "");
      const room = () => seriesOf.size < this.maxSeries && this.bytes + bytes <= this.maxBytes;
      while (!room() && seriesOf.size < this.maxSeries && this.compactOldest(date));
      if (room()) {
        one = { agent, ...(project === undefined ? {} : { project }), ...emptyCount(), bytes };
        seriesOf.set(key(agent, project), one);
        this.bytes += bytes;
      } else one = this.other(seriesOf);
    }
    addInto(one, count);
  }

  /** The `other` series: always allowed, one per provider and day, so totals are never lost. */
  private other(seriesOf: Map<string, DaySeries>): DaySeries {
    let one = seriesOf.get(key(OTHER));
    if (!one) {
      one = { agent: OTHER, ...emptyCount(), bytes: seriesBytes(OTHER) };
      seriesOf.set(key(OTHER), one);
      this.bytes += one.bytes;
    }
    return one;
  }

  /**
   * As the hours do (usage-ledger.ts): past the byte bound the oldest date before `date` keeps
   * each provider's 10 biggest series, then none; false when no date is left to compact.
   */
  private compactOldest(date: string): boolean {
    const dates = [...this.days.keys()].filter((one) => one < date).sort();
    for (const level of [1, 2] as const) {
      const oldest = dates.find((one) => (this.compacted.get(one) ?? 0) < level);
      if (oldest === undefined) continue;
      this.compacted.set(oldest, level);
      for (const seriesOf of this.days.get(oldest)!.values()) {
        const ranked = [...seriesOf.values()].filter((one) => one.agent !== OTHER || one.project !== undefined);
        ranked.sort((a, b) => tokenTotal(b) - tokenTotal(a) || b.requests - a.requests);
        const into = this.other(seriesOf);
        for (const one of ranked.slice(level === 1 ? KEPT_WHEN_COMPACTED : 0)) {
          seriesOf.delete(key(one.agent, one.project));
          this.bytes -= one.bytes;
          addInto(into, one);
        }
      }
      this.changed = true;
      return true;
    }
    return false;
  }

  /** Keeps the newest KEEP_DAYS dates (today's among them: each add is today's). */
  private prune(): void {
    if (this.days.size <= KEEP_DAYS) return;
    const kept = [...this.days.keys()].sort().slice(-KEEP_DAYS);
    for (const [date, providers] of this.days) {
      if (kept.includes(date)) continue;
      for (const seriesOf of providers.values()) for (const one of seriesOf.values()) this.bytes -= one.bytes;
      this.days.delete(date);
      this.compacted.delete(date);
      this.changed = true;
    }
  }
}
