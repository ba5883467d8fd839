// What each agent used, per provider and model, in hourly buckets kept 8 days (SPEC §9). Pure:
// times come in as arguments. Bounded twice: at most `maxSeries` agent × model series per
// provider and hour (the rest of that hour adds up under agent and model `other`), and at most
// `maxBytes` of series in all, so the files on disk stay a few MB whoever sends names. Past the
// byte bound the oldest hours are compacted first (each provider keeps its biggest series, the
// rest folds into `other`), so the current hours keep their detail; totals never change.
import type { TokenCounts, UsageGroup, UsageRow } from "../../shared/agents";
import { addInto, copyCount, countOf, emptyCount, OTHER, seriesBytes, tokenTotal, type UsageCount } from "./usage-count";

export const HOUR_MS = 3_600_000;
export const KEEP_HOURS = 8 * 24;
const MAX_SERIES_PER_PROVIDER_HOUR = 1_000;
/** About 3.5 MiB of hour files; days.json has its own half MiB (usage-days.ts). */
export const MAX_HOUR_BYTES = 3.5 * 1024 * 1024;
/** Series a compacted hour keeps per provider before folding the rest. */
const KEPT_WHEN_COMPACTED = 10;

/** One series of one hour, as the usage files hold it. */
export interface StoredSeries extends UsageCount {
  hour: number;
  providerId: string;
  agent: string;
  model: string;
  project?: string;
}

export interface UsageEvent {
  providerId: string;
  agent: string;
  model: string;
  project?: string;
  rateLimited?: boolean;
  error?: boolean;
  tokens?: TokenCounts;
  costUsd?: number;
  unpriced?: boolean;
}

interface Series extends UsageCount {
  agent: string;
  model: string;
  project?: string;
  bytes: number;
}

interface Hour {
  providers: Map<string, Map<string, Series>>;
  /** 0 as counted; 1 = each provider keeps its biggest series; 2 = one `other` per provider. */
  compacted: 0 | 1 | 2;
}

export const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;
const seriesKey = (agent: string, model: string, project = "") => `${agent}\u0000${model}\u0000${project}`;

export class UsageLedger {
  /** Hours in time order, oldest first. */
  private readonly hours = new Map<number, Hour>();
  private bytes = 0;
  private readonly dirty = new Set<number>();
  private readonly removed = new Set<number>();

  constructor(
    private readonly maxSeries = MAX_SERIES_PER_PROVIDER_HOUR,
    private readonly maxBytes = MAX_HOUR_BYTES,
  ) {}

  add(at: number, event: UsageEvent): void {
    const hour = hourOf(at);
    this.addCount(hour, event.providerId, event.agent, event.model, event.project, countOf(event), hour, true);
    this.prune(at);
  }

  /** Series read back from the usage files (not written again); those older than 8 days are left out. */
  restore(series: readonly StoredSeries[], now: number): void {
    for (const stored of series) {
      this.addCount(hourOf(stored.hour), stored.providerId, stored.agent, stored.model, stored.project, stored, hourOf(now), false);
    }
    this.prune(now);
  }

  /** The hour must be written again (its file was moved aside, or a write failed). */
  touch(hour: number): void {
    if (this.hours.has(hour)) this.dirty.add(hour);
  }

  /** Hours changed since the last call (their files to write) and hours dropped since (to remove). */
  takeChanges(): { hours: number[]; removed: number[] } {
    const hours = [...this.dirty].filter((hour) => this.hours.has(hour));
    const removed = [...this.removed];
    this.dirty.clear();
    this.removed.clear();
    return { hours, removed };
  }

  /** One hour as its file holds it, per provider; undefined once the hour is dropped. */
  hourRows(hour: number): Record<string, StoredRow[]> | undefined {
    const bucket = this.hours.get(hour);
    if (!bucket) return undefined;
    const out: Record<string, StoredRow[]> = {};
    for (const [providerId, seriesOf] of bucket.providers) {
      out[providerId] = [...seriesOf.values()].map((series) => ({
        agent: series.agent,
        model: series.model,
        ...(series.project === undefined ? {} : { project: series.project }),
        ...copyCount(series),
      }));
    }
    return out;
  }

  /** What the hours hold, in bytes as the files would at most. */
  storedBytes(): number {
    return this.bytes;
  }

  /**
   * Sums since `since` (from the start of its hour), grouped by agent, provider or model, biggest
   * first; `apiEquivalent` on a row all of whose providers are on a plan (`onPlan`).
   */
  rows(since: number, by: UsageGroup, onPlan: (providerId: string) => boolean = () => false): UsageRow[] {
    const groups = new Map<string, UsageCount>();
    const allOnPlan = new Map<string, boolean>();
    const from = hourOf(since);
    for (const [hour, { providers }] of this.hours) {
      if (hour < from) continue;
      for (const [providerId, seriesOf] of providers) {
        for (const series of seriesOf.values()) {
          const name = by === "agent" ? series.agent : by === "provider" ? providerId : series.model;
          let sum = groups.get(name);
          if (!sum) groups.set(name, (sum = emptyCount()));
          addInto(sum, series);
          allOnPlan.set(name, (allOnPlan.get(name) ?? true) && onPlan(providerId));
        }
      }
    }
    const sorted = [...groups].sort(([, a], [, b]) => tokenTotal(b) - tokenTotal(a) || b.requests - a.requests);
    return sorted.map(([name, count]) => ({
      [by === "provider" ? "providerId" : by]: name,
      ...copyCount(count),
      ...(allOnPlan.get(name) ? { apiEquivalent: true as const } : {}),
    }));
  }

  /** Per provider and agent since `sinceOf(providerId)`: what an agent's entry shows. */
  byAgent(sinceOf: (providerId: string) => number): Map<string, UsageCount> {
    const totals = new Map<string, UsageCount>();
    const since = new Map<string, number>();
    for (const [hour, { providers }] of this.hours) {
      for (const [providerId, seriesOf] of providers) {
        let from = since.get(providerId);
        if (from === undefined) since.set(providerId, (from = hourOf(sinceOf(providerId))));
        if (hour < from) continue;
        for (const series of seriesOf.values()) {
          const key = `${providerId}\u0000${series.agent}`;
          let total = totals.get(key);
          if (!total) totals.set(key, (total = emptyCount()));
          addInto(total, series);
        }
      }
    }
    return totals;
  }

  private addCount(hour: number, providerId: string, agent: string, model: string, project: string | undefined, count: UsageCount, current: number, changed: boolean): void {
    let bucket = this.hours.get(hour);
    if (!bucket) {
      bucket = { providers: new Map(), compacted: 0 };
      this.hours.set(hour, bucket);
      if ([...this.hours.keys()].some((h) => h > hour)) this.reorder();
    }
    if (changed) this.dirty.add(hour);
    let seriesOf = bucket.providers.get(providerId);
    if (!seriesOf) bucket.providers.set(providerId, (seriesOf = new Map()));
    let one = seriesOf.get(seriesKey(agent, model, project));
    if (!one) {
      const bytes = seriesBytes(providerId, agent, model, project ?? "");
      const room = (of: Map<string, Series>) => of.size < this.maxSeries && this.bytes + bytes <= this.maxBytes;
      while (!room(seriesOf) && seriesOf.size < this.maxSeries && this.compactOldest(current)) seriesOf = bucket.providers.get(providerId)!;
      one = room(seriesOf) ? this.create(seriesOf, agent, model, project, bytes) : this.other(seriesOf);
    }
    addInto(one, count);
  }

  private create(seriesOf: Map<string, Series>, agent: string, model: string, project: string | undefined, bytes: number): Series {
    const one: Series = { agent, model, ...(project === undefined ? {} : { project }), ...emptyCount(), bytes };
    seriesOf.set(seriesKey(agent, model, project), one);
    this.bytes += bytes;
    return one;
  }

  /** The `other` series: always allowed, one per provider and hour, so totals are never lost. */
  private other(seriesOf: Map<string, Series>): Series {
    return seriesOf.get(seriesKey(OTHER, OTHER)) ?? this.create(seriesOf, OTHER, OTHER, undefined, seriesBytes(OTHER, OTHER));
  }

  /** Compacts the oldest hour before `current` not yet compacted this far; false when none is left. */
  private compactOldest(current: number): boolean {
    for (const level of [1, 2] as const) {
      for (const [hour, bucket] of this.hours) {
        if (hour >= current) break;
        if (bucket.compacted >= level) continue;
        this.compact(hour, bucket, level === 1 ? KEPT_WHEN_COMPACTED : 0);
        bucket.compacted = level;
        return true;
      }
    }
    return false;
  }

  private compact(hour: number, bucket: Hour, keep: number): void {
    this.dirty.add(hour);
    for (const [providerId, seriesOf] of bucket.providers) {
      const ranked = [...seriesOf.values()].filter((one) => one.agent !== OTHER || one.model !== OTHER);
      ranked.sort((a, b) => tokenTotal(b) - tokenTotal(a) || b.requests - a.requests);
      const folded = ranked.slice(keep);
      if (folded.length === 0) continue;
      const kept = new Map<string, Series>();
      for (const one of ranked.slice(0, keep)) kept.set(seriesKey(one.agent, one.model, one.project), one);
      const other = seriesOf.get(seriesKey(OTHER, OTHER));
      if (other) kept.set(seriesKey(OTHER, OTHER), other);
      for (const one of folded) this.bytes -= one.bytes;
      const into = this.other(kept);
      for (const one of folded) addInto(into, one);
      bucket.providers.set(providerId, kept);
    }
  }

  /** Restored hours may come out of order; the map is kept oldest first so pruning stops early. */
  private reorder(): void {
    const sorted = [...this.hours.entries()].sort(([a], [b]) => a - b);
    this.hours.clear();
    for (const [hour, bucket] of sorted) this.hours.set(hour, bucket);
  }

  private prune(now: number): void {
    const oldest = hourOf(now) - (KEEP_HOURS - 1) * HOUR_MS;
    for (const [hour, bucket] of this.hours) {
      if (hour >= oldest) break;
      for (const seriesOf of bucket.providers.values()) for (const one of seriesOf.values()) this.bytes -= one.bytes;
      this.hours.delete(hour);
      this.dirty.delete(hour);
      this.removed.add(hour);
    }
  }
}

/** One series in an hour file, under its provider. */
export interface StoredRow extends UsageCount {
  agent: string;
  model: string;
  project?: string;
}
