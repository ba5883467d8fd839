// The one object every transport calls: it composes the engine with settings, persistence,
// history and change notification, so HTTP, IPC, the CLI and the proxy all behave the same.
import type { HostInfo } from "../../shared/contract";
import type {
  Admission,
  BreakerSettings,
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  HistoryEvent,
  LeaseOutcome,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RouteEntry,
  RouteKey,
  RouteOutcome,
  RoutesView,
  SeriesResponse,
  UpstreamLimits,
  UsageGateConfig,
} from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import type { ProviderConfigPatch } from "../../shared/validate";
import type { Clock } from "../engine/clock";
import type { AdmitResult, RouteBreaker } from "../engine/breaker-types";
import type { ProviderPool, UsageProbe } from "../engine/pool-types";
import { createRouteBreaker } from "../engine/route-breaker";
import type { SettingsStore } from "../settings/settings-store";
import { HistoryLog } from "./history-log";
import { LeaseBook } from "./lease-book";
import { LeaseJournal } from "./lease-journal";
import { ServiceMetrics } from "./metrics";
import { ProviderRegistry } from "./provider-registry";
import { checkNotSelf } from "./self-upstream";
import { SeriesSampler } from "./series-sampler";
import { abandoned, queueTimeout, shuttingDown, unknownLease, unknownProvider } from "./service-error";

export type Topic = "status" | "routes" | "history";

export interface ServiceOptions {
  store: SettingsStore;
  clock: Clock;
  newId: () => string;
  leaseTtlMs?: number;
  usageProbe?: (config: UsageGateConfig) => UsageProbe;
  log?: (message: string, state?: unknown) => void;
  /** Where agents reach this host; known once the servers listen, hence a function. */
  hostInfo?: () => HostInfo;
}

export interface AcquireInput {
  providerId: string;
  agentId?: string;
  waiterId?: string;
  timeoutMs?: number;
  /** The lease's time to live without a heartbeat; leaseTtlMs when absent. */
  ttlMs?: number;
  signal?: AbortSignal;
  /** API leases expire unless heartbeated; proxy leases pass false (the connection is the lease). */
  expires?: boolean;
}

export class HeadroomService {
  private readonly providers: ProviderRegistry;
  private readonly breaker: RouteBreaker;
  private readonly history = new HistoryLog();
  private readonly book: LeaseBook;
  private readonly listeners = new Set<(topic: Topic) => void>();
  private readonly leaseTtlMs: number;
  private closed = false;
  private readonly journal: LeaseJournal;
  private readonly sampler: SeriesSampler;
  private readonly meter: ServiceMetrics;

  constructor(private readonly options: ServiceOptions) {
    this.leaseTtlMs = options.leaseTtlMs ?? LIMITS.leaseTtlMs.default;
    this.book = new LeaseBook(() => options.clock.now());
    this.meter = new ServiceMetrics({
      providers: () => this.status().providers,
      routes: () => this.breaker.snapshot(),
      now: () => options.clock.now(),
    });
    const data = options.store.read();
    this.journal = new LeaseJournal(options.store, options.clock, () => this.providers.leasesToKeep());
    this.breaker = createRouteBreaker({
      clock: options.clock,
      settings: data.routes,
      onChange: () => this.emit("routes"),
      onEvent: (event) => this.record(event),
    });
    this.providers = new ProviderRegistry({
      store: options.store,
      clock: options.clock,
      newId: options.newId,
      ...(options.usageProbe ? { usageProbe: options.usageProbe } : {}),
      ...(options.log ? { log: options.log } : {}),
      onStatusChange: () => this.emit("status"),
      onEvent: (event) => this.record(event),
      onLeasesChange: () => this.journal.changed(),
      // Remembered for an hour as ended, then forgotten: a killed agent's id does not live on.
      onLeaseExpired: (leaseId) => {
        const providerId = this.book.providerOf(leaseId);
        if (providerId !== undefined) this.meter.released(providerId, "failure");
        this.book.end(leaseId);
      },
    });
    for (const [providerId, settings] of Object.entries(data.providers)) this.providers.add(providerId, settings, false);
    for (const lease of data.leases) {
      const provider = this.providers.get(lease.providerId);
      if (!provider) continue;
      this.book.hold(lease.leaseId, lease.providerId);
      provider.pool.restoreLease(lease, this.leaseTtlMs);
    }
    this.sampler = new SeriesSampler({ clock: options.clock, read: () => this.status().providers });
    this.sampler.start();
  }

  // ── reading ────────────────────────────────────────────────────────────────

  /** The last `minutes` of load per provider, sampled every 2 s (the window's chart). */
  series(minutes: number): SeriesResponse {
    return this.sampler.read(minutes);
  }

  status(): ConcurrencyStatusResponse {
    const providers: ConcurrencyStatusEntry[] = [];
    for (const provider of this.providers.sorted()) providers.push(this.providers.entryOf(provider));
    const notices = this.options.store.notices();
    return notices.length > 0 ? { providers, notices } : { providers };
  }

  statusOf(providerId: string): ConcurrencyStatusEntry {
    return this.providers.entryOf(this.providers.require(providerId));
  }

  limits(): { limits: LimitView[] } {
    return { limits: this.providers.sorted().map(({ pool }) => ({ providerId: pool.providerId, limit: pool.config().limit })) };
  }

  limit(providerId: string): LimitView {
    return { providerId, limit: this.providers.require(providerId).pool.config().limit };
  }

  cooldown(providerId: string): CooldownView {
    return { providerId, cooldownMs: this.providers.require(providerId).pool.config().cooldownMs };
  }

  providerConfig(providerId: string): ProviderConfigView {
    const { pool, upstream, usageGate } = this.providers.require(providerId);
    const config = pool.config();
    return {
      providerId,
      limit: config.limit,
      cooldownMs: config.cooldownMs,
      ...(upstream === undefined ? {} : { upstream }),
      ...(usageGate === undefined ? {} : { usageGate }),
    };
  }

  hasProvider(providerId: string): boolean {
    return this.providers.has(providerId);
  }

  leases(providerId: string): LeasesView {
    return this.providers.require(providerId).pool.leases();
  }

  routes(): RoutesView {
    return { routes: this.breaker.snapshot(), settings: this.breaker.settings() };
  }

  historyEvents(): { events: HistoryEvent[] } {
    return { events: this.history.newestFirst() };
  }

  /** GET /metrics: the Prometheus exposition of this service's registry. */
  metrics(): Promise<{ contentType: string; text: string }> {
    return this.meter.exposition();
  }

  // ── provider settings ──────────────────────────────────────────────────────

  /** The only way a provider comes into being (SPEC §3). A manual limit clears any auto-reduction. */
  setLimit(providerId: string, limit: number): LimitView {
    this.assertOpen();
    const existing = this.providers.get(providerId);
    if (existing) {
      const before = existing.pool.config();
      existing.pool.setLimit(limit);
      if (before.autoReduced) {
        this.record({
          kind: "restored",
          providerId,
          message: `Limit for ${providerId} set to ${limit} by hand after an automatic reduction to ${before.limit}.`,
        });
      }
    } else {
      const settings = { limit, cooldownMs: LIMITS.cooldownMs.default, autoReduced: false, noticeDismissed: false };
      this.providers.add(providerId, settings, true);
      this.record({ kind: "provider_added", providerId, message: `Provider ${providerId} added with limit ${limit}.` });
      this.emit("status");
    }
    return this.limit(providerId);
  }

  setCooldown(providerId: string, cooldownMs: number): CooldownView {
    this.providers.require(providerId).pool.setCooldown(cooldownMs);
    return this.cooldown(providerId);
  }

  setProviderConfig(providerId: string, patch: ProviderConfigPatch): ProviderConfigView {
    if (typeof patch.upstream === "string") checkNotSelf(patch.upstream, this.options.hostInfo?.());
    this.providers.configure(this.providers.require(providerId), patch);
    this.emit("status");
    return this.providerConfig(providerId);
  }

  removeProvider(providerId: string): { removed: true } {
    const provider = this.providers.require(providerId);
    for (const lease of provider.pool.heldLeases()) this.book.end(lease.leaseId);
    this.providers.remove(provider);
    this.record({ kind: "provider_removed", providerId, message: `Provider ${providerId} removed.` });
    this.emit("status");
    return { removed: true };
  }

  resume(providerId: string): ConcurrencyStatusEntry {
    const provider = this.providers.require(providerId);
    provider.pool.resume();
    return this.providers.entryOf(provider);
  }

  dismissNotice(providerId: string): ConcurrencyStatusEntry {
    const provider = this.providers.require(providerId);
    provider.pool.dismissNotice();
    return this.providers.entryOf(provider);
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  async acquire(input: AcquireInput): Promise<Admission> {
    this.assertOpen();
    const { pool } = this.providers.require(input.providerId);
    const askedAt = this.options.clock.now();
    const result = await pool.acquire({
      ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
      ...(input.waiterId === undefined ? {} : { waiterId: input.waiterId }),
      ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.expires === false ? {} : { ttlMs: input.ttlMs ?? this.leaseTtlMs }),
    });
    if (!result.ok) {
      if (result.failure.kind === "timeout") throw queueTimeout(input.providerId, input.timeoutMs ?? 0);
      if (result.failure.kind === "aborted") throw abandoned();
      throw this.closed ? shuttingDown() : unknownProvider(input.providerId, this.providers.ids());
    }
    const { lease } = result;
    this.book.hold(lease.leaseId, lease.providerId);
    this.meter.admitted(lease.providerId, lease.admittedAt - askedAt);
    return {
      leaseId: lease.leaseId,
      providerId: lease.providerId,
      admittedAt: lease.admittedAt,
      ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
    };
  }

  /** The admission could not be handed to the client: the slot returns at once, no cooldown. */
  undelivered(leaseId: string): void {
    const providerId = this.book.providerOf(leaseId);
    if (providerId === undefined) return;
    this.providers.get(providerId)?.pool.returnUndelivered(leaseId);
    this.book.end(leaseId);
  }

  heartbeat(leaseId: string): { leaseId: string; expiresAt?: number } {
    const pool = this.poolOfLease(leaseId);
    const lease = pool?.heartbeat(leaseId);
    if (!lease) throw unknownLease(leaseId);
    return { leaseId, ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }) };
  }

  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): { released: boolean } {
    const pool = this.poolOfLease(leaseId);
    if (pool?.release(leaseId, outcome, retryAfterMs)) {
      this.meter.released(pool.providerId, outcome);
      this.book.end(leaseId);
      return { released: true };
    }
    if (this.book.endedRecently(leaseId)) return { released: false };
    throw unknownLease(leaseId);
  }

  /**
   * A proxy request rides on a held lease of this provider (SPEC §6 "Lease-scoped requests"):
   * true when it may, and the ride keeps the lease alive. false falls back to normal gating.
   */
  rideLease(leaseId: string, providerId: string): boolean {
    if (this.book.providerOf(leaseId) !== providerId || !this.poolOfLease(leaseId)) return false;
    this.heartbeat(leaseId);
    return true;
  }

  /** A 429 on a ride: pauses and may reduce as the lease's release would; the lease stays held. */
  rideRateLimited(leaseId: string, retryAfterMs?: number): void {
    this.poolOfLease(leaseId)?.rateLimitedOn(leaseId, retryAfterMs);
  }

  /** The provider's rate-limit headers from one answer (SPEC §6). */
  noteUpstreamLimits(providerId: string, reading: UpstreamLimits, fromSuccess: boolean): void {
    this.providers.get(providerId)?.pool.noteUpstreamLimits(reading, fromSuccess);
  }

  releaseByHand(leaseId: string): { released: boolean } {
    const providerId = this.book.providerOf(leaseId);
    const answer = this.release(leaseId, "failure");
    if (answer.released && providerId !== undefined) {
      this.record({
        kind: "lease_released_by_hand",
        providerId,
        message: `A lease of ${providerId} was released by hand.`,
      });
    }
    return answer;
  }

  // ── routes ─────────────────────────────────────────────────────────────────

  routeAdmit(route: RouteKey, runId: string): AdmitResult {
    return this.breaker.admit(route, runId);
  }

  routeBlocked(route: RouteKey) {
    return this.breaker.blocked(route);
  }

  routeOutcome(route: RouteKey, runId: string, outcome: RouteOutcome, reason?: string): RouteEntry {
    return this.breaker.outcome(route, runId, outcome, reason);
  }

  routeRelease(route: RouteKey, runId: string): RouteEntry {
    return this.breaker.release(route, runId);
  }

  routeReset(route: RouteKey): RouteEntry {
    return this.breaker.reset(route);
  }

  setRouteSettings(patch: Partial<BreakerSettings>): BreakerSettings {
    const settings = this.breaker.setSettings(patch);
    this.options.store.update((draft) => {
      draft.routes = { ...settings };
    });
    this.emit("routes");
    return settings;
  }

  // ── lifecycle and change feed ──────────────────────────────────────────────

  subscribe(listener: (topic: Topic) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Answers every waiter, stops timers and writes what is pending. Held leases stay persisted. */
  close(): void {
    if (this.closed) return;
    this.journal.close();
    this.sampler.stop();
    this.closed = true;
    this.providers.disposeAll();
    this.breaker.dispose();
    this.options.store.close();
    this.listeners.clear();
  }

  // ── internals ──────────────────────────────────────────────────────────────

  private record(event: Omit<HistoryEvent, "at">): void {
    const recorded = { at: this.options.clock.now(), ...event };
    this.history.add(recorded);
    this.meter.recorded(recorded);
    this.emit("history");
  }

  private emit(topic: Topic): void {
    for (const listener of this.listeners) listener(topic);
  }

  private poolOfLease(leaseId: string): ProviderPool | undefined {
    const providerId = this.book.providerOf(leaseId);
    const pool = providerId === undefined ? undefined : this.providers.get(providerId)?.pool;
    if (pool && !pool.isHeld(leaseId)) {
      // Expired inside the pool: remember it so a late release answers { released: false }.
      this.book.end(leaseId);
      return undefined;
    }
    return pool;
  }

  private assertOpen(): void {
    if (this.closed) throw shuttingDown();
  }
}
