// What each agent used, per provider and model, in hourly buckets kept 8 days (SPEC §9). Pure:
// times come in as arguments. Bounded: at most `maxSeries` agent × model series per provider
// and hour; the rest of that hour adds up under agent and model `other`.
import { noTokens, type TokenCounts, type UsageGroup, type UsageRow } from "../../shared/agents";

export const HOUR_MS = 3_600_000;
const KEEP_HOURS = 8 * 24;
const MAX_SERIES_PER_PROVIDER_HOUR = 1_000;
const OTHER = "other";

export interface UsageCount {
  requests: number;
  rateLimited: number;
  errors: number;
  tokens: TokenCounts;
  /** US dollars (SPEC §9 "What it cost"); 0 when nothing was priced. */
  costUsd: number;
  /** Requests whose model has no price. */
  unpriced: number;
}

/** One series of one hour, as the usage file holds it. */
export interface StoredSeries extends UsageCount {
  hour: number;
  providerId: string;
  agent: string;
  model: string;
}

export interface UsageEvent {
  providerId: string;
  agent: string;
  model: string;
  rateLimited?: boolean;
  error?: boolean;
  tokens?: TokenCounts;
  costUsd?: number;
  unpriced?: boolean;
}

const emptyCount = (): UsageCount => ({ requests: 0, rateLimited: 0, errors: 0, tokens: noTokens(), costUsd: 0, unpriced: 0 });

function addInto(into: UsageCount, from: UsageCount): void {
  into.requests += from.requests;
  into.rateLimited += from.rateLimited;
  into.errors += from.errors;
  into.tokens.input += from.tokens.input;
  into.tokens.output += from.tokens.output;
  into.tokens.cacheRead += from.tokens.cacheRead;
  into.tokens.cacheWrite += from.tokens.cacheWrite;
  into.costUsd += from.costUsd;
  into.unpriced += from.unpriced;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;
const seriesKey = (agent: string, model: string) => `${agent}\u0000${model}`;

interface Series extends UsageCount {
  agent: string;
  model: string;
}

export class UsageLedger {
  /** hour → provider → agent\0model → counts; hours in insertion (time) order. */
  private readonly hours = new Map<number, Map<string, Map<string, Series>>>();

  constructor(private readonly maxSeries = MAX_SERIES_PER_PROVIDER_HOUR) {}

  add(at: number, event: UsageEvent): void {
    const count: UsageCount = {
      requests: 1,
      rateLimited: event.rateLimited ? 1 : 0,
      errors: event.error ? 1 : 0,
      tokens: event.tokens ?? noTokens(),
      costUsd: event.costUsd ?? 0,
      unpriced: event.unpriced ? 1 : 0,
    };
    this.addCount(hourOf(at), event.providerId, event.agent, event.model, count);
    this.prune(at);
  }

  /** Series read back from the usage file; those older than 8 days are left out. */
  restore(series: readonly StoredSeries[], now: number): void {
    for (const stored of series) this.addCount(hourOf(stored.hour), stored.providerId, stored.agent, stored.model, stored);
    this.prune(now);
  }

  stored(): StoredSeries[] {
    const out: StoredSeries[] = [];
    for (const [hour, providers] of this.hours) {
      for (const [providerId, series] of providers) {
        for (const { agent, model, requests, rateLimited, errors, tokens, costUsd, unpriced } of series.values()) {
          out.push({ hour, providerId, agent, model, requests, rateLimited, errors, tokens: { ...tokens }, costUsd, unpriced });
        }
      }
    }
    return out;
  }

  /**
   * Sums since `since` (from the start of its hour), grouped by agent, provider or model, biggest
   * first; `apiEquivalent` on a row all of whose providers are on a plan (`onPlan`).
   */
  rows(since: number, by: UsageGroup, onPlan: (providerId: string) => boolean = () => false): UsageRow[] {
    const groups = new Map<string, UsageRow>();
    const allOnPlan = new Map<string, boolean>();
    this.each(since, (providerId, series) => {
      const name = by === "agent" ? series.agent : by === "provider" ? providerId : series.model;
      let row = groups.get(name);
      if (!row) {
        row = { [by === "provider" ? "providerId" : by]: name, ...emptyCount() };
        groups.set(name, row);
      }
      addInto(row, series);
      allOnPlan.set(name, (allOnPlan.get(name) ?? true) && onPlan(providerId));
    });
    for (const [name, row] of groups) if (allOnPlan.get(name)) row.apiEquivalent = true;
    const total = (row: UsageRow) => row.tokens.input + row.tokens.output + row.tokens.cacheRead + row.tokens.cacheWrite;
    return [...groups.values()].sort((a, b) => total(b) - total(a) || b.requests - a.requests);
  }

  /** Per provider and agent since `sinceOf(providerId)`: what an agent's entry shows. */
  byAgent(sinceOf: (providerId: string) => number): Map<string, UsageCount> {
    const totals = new Map<string, UsageCount>();
    const since = new Map<string, number>();
    for (const [hour, providers] of this.hours) {
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

  private each(since: number, visit: (providerId: string, series: Series) => void): void {
    const from = hourOf(since);
    for (const [hour, providers] of this.hours) {
      if (hour < from) continue;
      for (const [providerId, series] of providers) for (const one of series.values()) visit(providerId, one);
    }
  }

  private addCount(hour: number, providerId: string, agent: string, model: string, count: UsageCount): void {
    let providers = this.hours.get(hour);
    if (!providers) {
      providers = new Map();
      this.hours.set(hour, providers);
      if (this.hours.size > 1 && [...this.hours.keys()].some((h) => h > hour)) this.reorder();
    }
    let series = providers.get(providerId);
    if (!series) providers.set(providerId, (series = new Map()));
    let key = seriesKey(agent, model);
    let one = series.get(key);
    if (!one && series.size >= this.maxSeries) {
      key = seriesKey(OTHER, OTHER);
      one = series.get(key);
      agent = OTHER;
      model = OTHER;
    }
    if (!one) series.set(key, (one = { agent, model, ...emptyCount() }));
    addInto(one, count);
  }

  /** Restored hours may come out of order; the map is kept oldest first so pruning stops early. */
  private reorder(): void {
    const sorted = [...this.hours.entries()].sort(([a], [b]) => a - b);
    this.hours.clear();
    for (const [hour, providers] of sorted) this.hours.set(hour, providers);
  }

  private prune(now: number): void {
    const oldest = hourOf(now) - (KEEP_HOURS - 1) * HOUR_MS;
    for (const hour of this.hours.keys()) {
      if (hour >= oldest) break;
      this.hours.delete(hour);
    }
  }
}
