// The one object every transport calls: it composes the engine with settings, persistence,
// history and change notification, so HTTP, IPC, the CLI and the proxy all behave the same.
import type { HostInfo, SnapshotTopic } from "../../shared/contract";
import type { OperationService } from "../../shared/operations";
import type {
  Admission,
  BreakerSettings,
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  HistoryEvent,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RedisState,
  RouteAdmission,
  RouteEntry,
  RouteKey,
  RouteRefusal,
  RoutesView,
  SeriesResponse,
  UpstreamLimits,
  UsageGateConfig,
} from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import type { Clock } from "../engine/clock";
import type { AcquireResult, ProviderPool, UsageProbe } from "../engine/pool-types";
import type { SettingsStore } from "../settings/settings-store";
import type { SharedHub } from "../shared-pool/shared-hub";
import { HistoryLog } from "./history-log";
import { LeaseBook } from "./lease-book";
import { LeaseJournal } from "./lease-journal";
import { changeSaved } from "./change-saved";
import { ServiceMetrics } from "./metrics";
import { ProviderRegistry, type Provider } from "./provider-registry";
import type { SharedRouteBreaker } from "../shared-pool/shared-breaker";
import { HubBreakers } from "./hub-breakers";
import { RouteService, type RouteAnswer, type RouteRun, type RouteVerdict } from "./route-service";
import { checkNotSelf } from "./self-upstream";
import {
  ServiceError,
  abandoned,
  queueTimeout,
  shuttingDown,
  unknownLease,
  unknownProvider,
} from "./service-error";
import { SeriesSampler } from "./series-sampler";
import { SettingsWriter } from "./settings-writer";

const RELEASE_NOT_SAVED = "the slot is free, but a restart may bring the lease back until it expires";

export interface ServiceOptions {
  store: SettingsStore;
  clock: Clock;
  newId: () => string;
  leaseTtlMs?: number;
  usageProbe?: (config: UsageGateConfig) => UsageProbe;
  log?: (message: string, state?: unknown) => void;
  /** Where agents reach this host; known once the servers listen, hence a function. */
  hostInfo?: () => HostInfo;
  /**
   * The route breaker of a shared provider (SPEC §7: its routes' breakers live in Redis), or
   * undefined while the target is local. Shared routes answer with promises.
   */
  sharedBreakerOf?: (targetId: string) => SharedRouteBreaker | undefined;
  /** The Redis shared providers live on (SPEC §7); absent = sharing is off on this host. */
  hub?: SharedHub;
}

export interface AcquireInput {
  providerId: string;
  agentId?: string;
  waiterId?: string;
  timeoutMs?: number;
  /** This lease's time-to-live (SPEC §3 `ttlMs`); the host's leaseTtlMs when absent. */
  ttlMs?: number;
  signal?: AbortSignal;
  /** API leases expire unless heartbeated; proxy leases pass false (the connection is the lease). */
  expires?: boolean;
}

/** The input of the operation that calls service method M (its row's parameters and body). */
type Input<M extends keyof OperationService> = Parameters<OperationService[M]>[0];

export class HeadroomService implements OperationService {
  readonly clock: Clock;
  private readonly providers: ProviderRegistry;
  private readonly routeService: RouteService;
  private readonly history = new HistoryLog();
  private readonly book: LeaseBook;
  private readonly listeners = new Set<(topic: SnapshotTopic) => void>();
  private readonly leaseTtlMs: number;
  private closed = false;
  private readonly journal: LeaseJournal;
  private readonly sampler: SeriesSampler;
  private readonly meter: ServiceMetrics;
  private readonly stopWatchingRedis: (() => void) | undefined;
  private readonly hubBreakers: HubBreakers | undefined;

  constructor(private readonly options: ServiceOptions) {
    this.clock = options.clock;
    this.leaseTtlMs = options.leaseTtlMs ?? LIMITS.leaseTtlMs.default;
    this.book = new LeaseBook(() => options.clock.now());
    this.meter = new ServiceMetrics({
      providers: () => this.status().providers,
      routes: () => this.routeService.view().routes,
      now: () => options.clock.now(),
      isShared: (providerId) => this.providers.get(providerId)?.pool.status().shared === true,
      redis: () => options.hub?.state(),
    });
    const data = options.store.read();
    const writer = new SettingsWriter(options.store);
    this.journal = new LeaseJournal(options.store, options.clock, () => this.providers.leasesToKeep());
    // With Redis, a shared provider's routes are judged there (SPEC §7); a test may bring its own.
    this.hubBreakers = options.hub
      ? new HubBreakers({
          hub: options.hub,
          clock: options.clock,
          isShared: (providerId) => this.providers.get(providerId)?.shared === true,
          onError: (error) => options.log?.("A shared provider's route breaker failed", error),
        })
      : undefined;
    const sharedBreakerOf = options.sharedBreakerOf ?? this.hubBreakers?.of;
    this.routeService = new RouteService({
      clock: options.clock,
      settings: data.routes,
      writer,
      onChange: () => this.emit("routes"),
      onEvent: (event) => this.record(event),
      assertOpen: () => this.assertOpen(),
      ...(sharedBreakerOf ? { sharedBreakerOf } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.providers = new ProviderRegistry({
      writer,
      clock: options.clock,
      newId: options.newId,
      ...(options.usageProbe ? { usageProbe: options.usageProbe } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.hub ? { hub: options.hub } : {}),
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
    for (const lease of options.store.leases.read()) {
      const provider = this.providers.get(lease.providerId);
      if (!provider) continue;
      this.book.hold(lease.leaseId, lease.providerId);
      provider.pool.restoreLease(lease, lease.ttlMs ?? this.leaseTtlMs);
    }
    for (const provider of this.providers.sorted()) if (provider.shared) this.followRouteSharing(provider.id);
    this.sampler = new SeriesSampler({ clock: options.clock, read: () => this.status().providers });
    this.sampler.start();
    this.stopWatchingRedis = options.hub?.onConnectionChange(() => this.emit("status"));
  }

  // ── reading ────────────────────────────────────────────────────────────────

  hostInfo(): HostInfo {
    const info = this.options.hostInfo?.() ?? { apiUrl: "", version: "" };
    const hostName = this.options.hub?.hostName;
    return hostName === undefined ? info : { ...info, hostName };
  }

  /** SPEC §3 `GET /health` `redis`: only when Redis is configured, never its URL. */
  redisState(): RedisState | undefined {
    return this.options.hub?.state();
  }

  /** The last `minutes` of load per provider, sampled every 2 s (the window's chart). */
  series({ minutes }: Input<"series">): SeriesResponse {
    return this.sampler.read(minutes ?? LIMITS.seriesMinutes.default);
  }

  status(): ConcurrencyStatusResponse {
    const providers: ConcurrencyStatusEntry[] = [];
    for (const provider of this.providers.sorted()) providers.push(this.providers.entryOf(provider));
    const notices = this.options.store.notices();
    const redis = this.options.hub?.state();
    return { providers, ...(notices.length > 0 ? { notices } : {}), ...(redis ? { redis } : {}) };
  }

  statusOf(providerId: string): ConcurrencyStatusEntry {
    return this.providers.entryOf(this.providers.require(providerId));
  }

  limits(): { limits: LimitView[] } {
    return { limits: this.providers.sorted().map(({ pool }) => ({ providerId: pool.providerId, limit: pool.config().limit })) };
  }

  limit({ providerId }: Input<"limit">): LimitView {
    return { providerId, limit: this.providers.require(providerId).pool.config().limit };
  }

  cooldown({ providerId }: Input<"cooldown">): CooldownView {
    return { providerId, cooldownMs: this.providers.require(providerId).pool.config().cooldownMs };
  }

  providerConfig({ providerId }: Input<"providerConfig">): ProviderConfigView {
    const { pool, upstream, usageGate, responseTimeoutMs, shared } = this.providers.require(providerId);
    const config = pool.config();
    return {
      providerId,
      limit: config.limit,
      cooldownMs: config.cooldownMs,
      responseTimeoutMs,
      ...(upstream === undefined ? {} : { upstream }),
      ...(usageGate === undefined ? {} : { usageGate }),
      ...(shared ? { shared } : {}),
    };
  }

  hasProvider(providerId: string): boolean {
    return this.providers.has(providerId);
  }

  leases({ providerId }: Input<"leases">): LeasesView {
    return this.providers.require(providerId).pool.leases();
  }

  routes(): RoutesView {
    return this.routeService.view();
  }

  historyEvents(): { events: HistoryEvent[] } {
    return { events: this.history.newestFirst() };
  }

  /** Where the history stands now: pass it to `historySince` to get only what came after. */
  historyCursor(): number {
    return this.history.added;
  }

  /** Events recorded after `cursor`, newest first, and the cursor to ask with next time. */
  historySince(cursor: number): { events: HistoryEvent[]; cursor: number } {
    return { events: this.history.since(cursor), cursor: this.history.added };
  }

  /** GET /metrics: the Prometheus exposition of this service's registry. */
  metrics(): Promise<{ contentType: string; text: string }> {
    return this.meter.exposition();
  }

  // ── provider settings ──────────────────────────────────────────────────────

  /** The only way a provider comes into being (SPEC §3). A manual limit clears any auto-reduction. */
  setLimit({ providerId, limit }: Input<"setLimit">): LimitView {
    return this.saving(() => this.applyLimit(providerId, limit));
  }

  private applyLimit(providerId: string, limit: number): LimitView {
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
    return this.limit({ providerId });
  }

  setCooldown({ providerId, cooldownMs }: Input<"setCooldown">): CooldownView {
    const { pool } = this.providers.require(providerId);
    return this.saving(() => {
      pool.setCooldown(cooldownMs);
      return this.cooldown({ providerId });
    });
  }

  setProviderConfig({ providerId, shared, ...patch }: Input<"setProviderConfig">): ProviderConfigView {
    this.assertOpen();
    const provider = this.providers.require(providerId);
    if (typeof patch.upstream === "string") checkNotSelf(patch.upstream, this.options.hostInfo?.());
    if (shared === true && !this.providers.canShare()) {
      // SPEC §7: sharing needs Redis, which this host does not connect to.
      throw new ServiceError(
        "invalid_input",
        "shared must be false: sharing a provider across machines needs Redis, and HEADROOM_REDIS_URL is not set.",
      );
    }
    return this.saving(() => {
      this.providers.configure(provider, patch);
      if (shared !== undefined) this.setShared(provider, shared);
      this.emit("status");
      return this.providerConfig({ providerId });
    });
  }

  private setShared(provider: Provider, shared: boolean): void {
    if (provider.shared === shared) return;
    this.providers.setShared(provider, shared);
    this.followRouteSharing(provider.id);
    this.record({
      kind: shared ? "provider_shared" : "provider_unshared",
      providerId: provider.id,
      message: shared
        ? `Provider ${provider.id} is now shared across machines on Redis.`
        : `Provider ${provider.id} is local to this host again.`,
    });
  }

  removeProvider({ providerId }: Input<"removeProvider">): { removed: true } {
    this.assertOpen();
    const provider = this.providers.require(providerId);
    return this.saving(() => this.forget(provider));
  }

  private forget(provider: Provider): { removed: true } {
    const providerId = provider.id;
    for (const lease of provider.pool.heldLeases()) this.book.end(lease.leaseId);
    this.providers.remove(provider);
    this.followRouteSharing(providerId);
    this.record({ kind: "provider_removed", providerId, message: `Provider ${providerId} removed.` });
    this.emit("status");
    return { removed: true };
  }

  resume({ providerId }: Input<"resume">): ConcurrencyStatusEntry {
    this.assertOpen();
    const provider = this.providers.require(providerId);
    provider.pool.resume();
    return this.providers.entryOf(provider);
  }

  dismissNotice({ providerId }: Input<"dismissNotice">): ConcurrencyStatusEntry {
    this.assertOpen();
    const provider = this.providers.require(providerId);
    return this.saving(() => {
      provider.pool.dismissNotice();
      return this.providers.entryOf(provider);
    });
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  async acquire(input: AcquireInput): Promise<Admission> {
    this.assertOpen();
    const askedAt = this.options.clock.now();
    const result = await this.admission(input, askedAt);
    if (!result.ok) {
      if (result.failure.kind === "timeout") throw queueTimeout(input.providerId, input.timeoutMs ?? 0);
      if (result.failure.kind === "aborted") throw abandoned();
      throw this.closed ? shuttingDown() : unknownProvider(input.providerId, this.providers.ids());
    }
    const { lease } = result;
    this.book.hold(lease.leaseId, lease.providerId);
    if (lease.expiresAt !== undefined) {
      // Nothing is acknowledged that is not saved: a lease that cannot be written goes back at once.
      try {
        await this.journal.saved("no slot was taken");
      } catch (error) {
        this.undelivered(lease.leaseId);
        throw error;
      }
    }
    this.meter.admitted(lease.providerId, lease.admittedAt - askedAt);
    return {
      leaseId: lease.leaseId,
      providerId: lease.providerId,
      admittedAt: lease.admittedAt,
      ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
    };
  }

  /** Waits in the provider's queue; a provider shared or made local meanwhile queues the waiter again on its new pool. */
  private async admission(input: AcquireInput, askedAt: number): Promise<AcquireResult> {
    for (;;) {
      const provider = this.providers.require(input.providerId);
      const pool = provider.pool;
      const timeoutMs = input.timeoutMs === undefined ? undefined : Math.max(0, input.timeoutMs - (this.options.clock.now() - askedAt));
      const result = await pool.acquire({
        ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
        ...(input.waiterId === undefined ? {} : { waiterId: input.waiterId }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
        ...(input.expires === false ? {} : { ttlMs: input.ttlMs ?? this.leaseTtlMs }),
      });
      const moved = !result.ok && result.failure.kind === "removed" && !this.closed && this.providers.get(input.providerId)?.pool !== pool;
      if (!moved || !this.providers.has(input.providerId)) return result;
    }
  }

  /**
   * The admission could not be handed to the client: the slot returns at once, no cooldown.
   * Allowed while closing, like every release: a slot is never stranded by shutdown.
   */
  undelivered(leaseId: string): void {
    const providerId = this.book.providerOf(leaseId);
    if (providerId === undefined) return;
    this.providers.get(providerId)?.pool.returnUndelivered(leaseId);
    this.book.end(leaseId);
  }

  heartbeat({ leaseId }: Input<"heartbeat">): { leaseId: string; expiresAt?: number } {
    this.assertOpen();
    const pool = this.poolOfLease(leaseId);
    const lease = pool?.heartbeat(leaseId);
    if (!lease) throw unknownLease(leaseId);
    return { leaseId, ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }) };
  }

  /** Releases are accepted while closing: the slot must come back whatever the host is doing. */
  release({ leaseId, outcome, retryAfterMs }: Input<"release">): { released: boolean } {
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
   * Resolves once every lease change made so far is on disk (group commit): a release is
   * answered only after this. When it cannot be saved the slot stays freed (a release must
   * never keep a slot) and this rejects with 503 naming the folder.
   */
  leasesSaved(): Promise<void> {
    return this.journal.saved(RELEASE_NOT_SAVED);
  }

  /**
   * A proxy request rides on a held lease of this provider (SPEC §6 "Lease-scoped requests"):
   * true when it may, and the ride keeps the lease alive. false falls back to normal gating.
   */
  rideLease(leaseId: string, providerId: string): boolean {
    const pool = this.poolOfLease(leaseId);
    if (this.book.providerOf(leaseId) !== providerId || !pool) return false;
    // Unguarded: a ride that ends while the host closes must still settle its route claim.
    pool.heartbeat(leaseId);
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

  /** Accepted while closing, like any release. */
  releaseByHand({ leaseId }: Input<"releaseByHand">): { released: boolean } {
    const providerId = this.book.providerOf(leaseId);
    const answer = this.release({ leaseId, outcome: "failure" });
    if (answer.released && providerId !== undefined) {
      this.record({
        kind: "lease_released_by_hand",
        providerId,
        message: `A lease of ${providerId} was released by hand.`,
      });
    }
    return answer;
  }

  // ── routes (electron/service/route-service.ts) ─────────────────────────────

  // A route whose target is a shared provider answers once Redis has; a local one at once.

  routeAdmit(input: Input<"routeAdmit">): RouteAnswer<RouteAdmission> {
    return this.routeService.admit(input);
  }

  routeBlocked(route: RouteKey): RouteAnswer<RouteRefusal | undefined> {
    return this.routeService.blocked(route);
  }

  routeOutcome(input: Input<"routeOutcome">): RouteAnswer<RouteEntry> {
    return this.routeService.outcome(input);
  }

  routeRelease(input: Input<"routeRelease">): RouteAnswer<RouteEntry> {
    return this.routeService.release(input);
  }

  routeReset(route: Input<"routeReset">): RouteAnswer<RouteEntry> {
    return this.routeService.reset(route);
  }

  /** The proxy's report when an exchange ends: never throws, accepted while closing. */
  settleRoute(run: RouteRun, verdict: RouteVerdict): void {
    this.routeService.settle(run, verdict);
  }

  /**
   * Call when a provider becomes shared or local again (and for each shared one at start):
   * its routes' breakers move to Redis or back, and the routes view follows.
   */
  updateRouteSharing(targetId: string): Promise<void> {
    return this.routeService.updateSharing(targetId);
  }

  /** The host's settings; a shared provider's breakers get the fields changed too (docs/shared.md). */
  setRouteSettings(patch: Input<"setRouteSettings">): RouteAnswer<BreakerSettings> {
    return this.saving(() => this.routeService.setSettings(patch));
  }

  // ── lifecycle and change feed ──────────────────────────────────────────────

  subscribe(listener: (topic: SnapshotTopic) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Answers every waiter, stops timers and writes what is pending. Held leases stay persisted. */
  close(): void {
    if (this.closed) return;
    this.journal.close();
    this.sampler.stop();
    this.stopWatchingRedis?.();
    this.closed = true;
    this.providers.disposeAll();
    this.routeService.dispose();
    this.hubBreakers?.dispose();
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

  private emit(topic: SnapshotTopic): void {
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

  /** A provider's routes move to Redis or back with it; this waits for nobody. */
  private followRouteSharing(providerId: string): void {
    this.updateRouteSharing(providerId).catch((error: unknown) =>
      this.options.log?.(`The routes of ${providerId} could not be shared on Redis`, error),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw shuttingDown();
  }

  /** SPEC §1: a settings change is made only if it can be saved, and answered once it is. */
  private saving<T>(change: () => T): T {
    this.assertOpen();
    return changeSaved(this.options.store, change);
  }
}
