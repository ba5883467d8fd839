// GET /metrics (SPEC §3): Headroom in Prometheus' text format through prom-client, on one
// registry per service (two hosts in one process, as in the tests, never share series).
// Counters and the wait histogram are fed as things happen; gauges are read at scrape time.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { TokenCounts } from "../../shared/agents";
import { MetricTally } from "./metric-tally";
import type { ConcurrencyStatusEntry, HistoryEvent, LeaseOutcome, PlanWindow, RedisState, RouteEntry, RouteKey } from "../../shared/types";

const HOUR_MS = 60 * 60_000;
const ROUTE_STATE: Record<RouteEntry["state"], number> = { closed: 0, open: 1, "half-open": 2 };
// Waits range from nothing (a free slot) to minutes behind a pause.
const WAIT_BUCKETS_S = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

/** What the gauges read at scrape time. */
export interface MetricsSource {
  providers(): ConcurrencyStatusEntry[];
  routes(): RouteEntry[];
  now(): number;
  /** SPEC §7: whether the provider is shared across machines (its series carry shared="true"). */
  isShared(providerId: string): boolean;
  /** Only when Redis is configured. */
  redis(): RedisState | undefined;
}

type ProviderLabels = { provider: string; shared?: string };

const routeKey = (route: RouteKey) => JSON.stringify([route.targetId, route.runtimeId, route.modelId]);

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly wait: Histogram<"provider" | "shared">;
  private readonly costCount: Counter<"provider">;
  private readonly admissionTally = new MetricTally<"provider" | "shared">();
  private readonly rateLimitedTally = new MetricTally<"provider" | "shared">();
  private readonly releaseTally = new MetricTally<"provider" | "shared" | "outcome">();
  private readonly tokenTally = new MetricTally<"provider" | "kind">();
  /** The wait histogram's label object per provider (and whether it is shared), built once. */
  private readonly waitLabels = new Map<string, ProviderLabels>();
  /** When each route last changed state; entries older than an hour are dropped at scrape. */
  private readonly routeChangedAt = new Map<string, number>();

  constructor(private readonly source: MetricsSource) {
    const registers = [this.registry];
    const tallies = this;
    new Counter({
      name: "headroom_admissions_total",
      help: "Leases admitted.",
      labelNames: ["provider", "shared"],
      registers,
      collect() {
        tallies.admissionTally.flushInto(this);
      },
    });
    new Counter({
      name: "headroom_rate_limited_total",
      help: "Leases released as rate limited (429s).",
      labelNames: ["provider", "shared"],
      registers,
      collect() {
        tallies.rateLimitedTally.flushInto(this);
      },
    });
    new Counter({
      name: "headroom_releases_total",
      help: "Leases released, by outcome (expired leases count as failure).",
      labelNames: ["provider", "shared", "outcome"],
      registers,
      collect() {
        tallies.releaseTally.flushInto(this);
      },
    });
    this.wait = new Histogram({
      name: "headroom_wait_seconds",
      help: "Time from asking for a slot to its admission.",
      labelNames: ["provider", "shared"],
      buckets: WAIT_BUCKETS_S,
      registers,
    });
    // SPEC §9: no agent label, so the series stay a handful per provider.
    new Counter({
      name: "headroom_tokens_total",
      help: "Tokens the provider reported through the proxy, by kind (input excludes cache reads).",
      labelNames: ["provider", "kind"],
      registers,
      collect() {
        tallies.tokenTally.flushInto(this);
      },
    });
    this.costCount = new Counter({
      name: "headroom_cost_usd_total",
      help: "What the proxied answers cost at the models' published prices, US dollars (API-equivalent on a plan; unpriced models add nothing).",
      labelNames: ["provider"],
      registers,
    });
    this.providerGauge("headroom_limit", "Concurrent requests allowed.", (e) => e.limit);
    this.providerGauge("headroom_active", "Leases held.", (e) => e.active);
    this.providerGauge("headroom_queued", "Waiters in the queue.", (e) => e.queued);
    this.providerGauge("headroom_recycling", "Slots inside their release cooldown.", (e) => e.recycling);
    this.providerGauge("headroom_paused", "1 while admissions are paused after a rate limit.", (e) => Number(e.paused));
    this.providerGauge("headroom_auto_reduced", "1 while the limit is lowered automatically.", (e) => Number(e.autoReduced));
    this.windowGauge("headroom_window_used_ratio", "How full each plan window is, 0..1 (SPEC §8).", (w) =>
      w.usedPercent === undefined ? undefined : w.usedPercent / 100,
    );
    this.windowGauge("headroom_window_resets_at_seconds", "When each plan window resets, in epoch seconds.", (w) =>
      w.resetsAt === undefined ? undefined : Math.round(w.resetsAt / 1000),
    );
    const metrics = this;
    new Gauge({
      name: "headroom_redis_connected",
      help: "1 while this host reaches the Redis its shared providers live on (only when Redis is configured).",
      registers,
      collect() {
        this.reset();
        const redis = source.redis();
        if (redis) this.set(Number(redis.connected));
      },
    });
    new Gauge({
      name: "headroom_route_state",
      help: "Route breaker state: 0 closed, 1 open, 2 half-open (routes not closed or changed in the last hour).",
      labelNames: ["target", "runtime", "model"],
      registers,
      collect() {
        this.reset();
        for (const route of metrics.visibleRoutes()) {
          this.set({ target: route.targetId, runtime: route.runtimeId, model: route.modelId }, ROUTE_STATE[route.state]);
        }
      },
    });
  }

  admitted(providerId: string, waitMs: number): void {
    const shared = this.source.isShared(providerId);
    const key = shared ? `${providerId}\u0000true` : providerId;
    this.admissionTally.add(key, () => this.labels(providerId, shared));
    let labels = this.waitLabels.get(key);
    if (!labels) this.waitLabels.set(key, (labels = this.labels(providerId, shared)));
    this.wait.observe(labels, Math.max(0, waitMs) / 1000);
  }

  released(providerId: string, outcome: LeaseOutcome): void {
    const shared = this.source.isShared(providerId);
    const key = shared ? `${providerId}\u0000true` : providerId;
    this.releaseTally.add(`${key}\u0000${outcome}`, () => ({ ...this.labels(providerId, shared), outcome }));
    if (outcome === "rate_limited") this.rateLimitedTally.add(key, () => this.labels(providerId, shared));
  }

  tokens(providerId: string, tokens: TokenCounts): void {
    const kinds = { input: tokens.input, output: tokens.output, cache_read: tokens.cacheRead, cache_write: tokens.cacheWrite };
    for (const [kind, count] of Object.entries(kinds)) {
      if (count > 0) this.tokenTally.add(`${providerId}\u0000${kind}`, () => ({ provider: providerId, kind }), count);
    }
  }

  cost(providerId: string, usd: number): void {
    this.costCount.inc({ provider: providerId }, usd);
  }

  private labels(providerId: string, shared: boolean): ProviderLabels {
    return shared ? { provider: providerId, shared: "true" } : { provider: providerId };
  }

  /** History events that move a route mark it as recently changed. */
  recorded(event: HistoryEvent): void {
    if (event.route) this.routeChangedAt.set(routeKey(event.route), event.at);
  }

  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private providerGauge(name: string, help: string, read: (entry: ConcurrencyStatusEntry) => number): void {
    const source = this.source;
    new Gauge({
      name,
      help,
      labelNames: ["provider", "shared"],
      registers: [this.registry],
      collect() {
        this.reset(); // a removed provider's series goes with it
        for (const entry of source.providers()) {
          this.set(entry.shared ? { provider: entry.providerId, shared: "true" } : { provider: entry.providerId }, read(entry));
        }
      },
    });
  }

  /** One series per provider and window (at most 8 windows each, so cardinality stays bounded). */
  private windowGauge(name: string, help: string, read: (window: PlanWindow) => number | undefined): void {
    const source = this.source;
    new Gauge({
      name,
      help,
      labelNames: ["provider", "window"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const entry of source.providers()) {
          for (const window of entry.windows ?? []) {
            const value = read(window);
            if (value !== undefined) this.set({ provider: entry.providerId, window: window.name }, value);
          }
        }
      },
    });
  }

  private visibleRoutes(): RouteEntry[] {
    const since = this.source.now() - HOUR_MS;
    for (const [key, at] of this.routeChangedAt) if (at < since) this.routeChangedAt.delete(key);
    return this.source.routes().filter((route) => route.state !== "closed" || this.routeChangedAt.has(routeKey(route)));
  }
}
