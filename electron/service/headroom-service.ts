// The one object every transport calls: it composes the engine with settings, persistence,
// history and change notification, so HTTP, IPC, the CLI and the proxy all behave the same.
// The operations live in the modules it composes (provider views and settings, leases, routes,
// agents, what the proxy reads from upstreams), which all report to one history and change feed
// (service-events.ts); the closing guard and the saving guard stay here, shared by all.
import { tame } from "../../shared/tame";
import { dirname } from "node:path";
import type { AgentsView, UsageView } from "../../shared/agents";
import type { ConnectAnswer, ConnectionEntry, Preset } from "../../shared/presets";
import type { HostInfo, SnapshotTopic } from "../../shared/contract";
import type { OperationService } from "../../shared/operations";
import type {
  Admission, BreakerSettings, ConcurrencyStatusEntry, ConcurrencyStatusResponse, CooldownView, HistoryEvent, LeasesView, LimitView,
  ProviderConfigView, RedisState, RouteAdmission, RouteEntry, RouteKey, RouteRefusal, RoutesView, SeriesResponse, StopKind, UsageGateConfig,
} from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import { tokenWindowStart } from "../agents/token-window";
import type { Clock } from "../engine/clock";
import type { AgentIdentity } from "../agents/agent-identity";
import type { UsageProbe } from "../engine/pool-types";
import type { WindowReading } from "../engine/window-readings";
import type { ResponseHeaders } from "../engine/upstream-limits";
import type { SettingsStore } from "../settings/settings-store";
import type { SharedRouteBreaker } from "../shared-pool/shared-breaker";
import type { SharedHub } from "../shared-pool/shared-hub";
import { AgentsService, type CountedAnswer } from "./agents-service";
import { changeSaved } from "./change-saved";
import { ConnectionsService, type AgentHome } from "./connections-service";
import { DailyBudgets } from "./daily-budgets";
import { sharedBudgetsFor, type SharedBudgets } from "./shared-budgets";
import { LeaseService, type AcquireInput } from "./lease-service";
import { ServiceMetrics } from "./metrics";
import type { Input } from "./operation-input";
import { ProviderRegistry } from "./provider-registry";
import { ProviderSettingsService } from "./provider-settings";
import { ProviderViews } from "./provider-views";
import { RouteService, type RouteAnswer, type RouteRun, type RouteVerdict } from "./route-service";
import { shuttingDown } from "./service-error";
import { SeriesSampler } from "./series-sampler";
import { ServiceEvents } from "./service-events";
import { SettingsWriter } from "./settings-writer";
import { UpstreamReadings, type ProxyRefusal } from "./upstream-readings";

export interface ServiceOptions {
  store: SettingsStore;
  clock: Clock;
  newId: () => string;
  leaseTtlMs?: number;
  usageProbe?: (config: UsageGateConfig) => UsageProbe;
  log?: (message: string, state?: unknown) => void;
  /** Problems found once at start-up that the status keeps showing (a data folder others can write). */
  startupNotices?: string[];
  /** Where agents reach this host; known once the servers listen, hence a function. */
  hostInfo?: () => HostInfo;
  /**
   * The route breaker of a shared provider (SPEC §7: its routes' breakers live in Redis), or
   * undefined while the target is local. Shared routes answer with promises.
   */
  sharedBreakerOf?: (targetId: string) => SharedRouteBreaker | undefined;
  /** The Redis shared providers live on (SPEC §7); absent = sharing is off on this host. */
  hub?: SharedHub;
  /** How often changed usage counts are written to the data folder's usage/ files (SPEC §9: 5 s; tests shorten it). */
  usageWriteMs?: number;
  /** Whose agents `POST /connections` edits (SPEC §10): the host's user unless a test says. */
  agentHome?: AgentHome;
}

export class HeadroomService implements OperationService {
  readonly clock: Clock;
  private readonly providers: ProviderRegistry;
  private readonly views: ProviderViews;
  private readonly settings: ProviderSettingsService;
  private readonly leaseService: LeaseService;
  private readonly routeService: RouteService;
  private readonly events: ServiceEvents;
  private closed = false;
  private readonly sampler: SeriesSampler;
  private readonly meter: ServiceMetrics;
  private readonly stopWatchingRedis: (() => void) | undefined;
  private readonly agentBook: AgentsService;
  private readonly upstream: UpstreamReadings;
  private readonly connectionsService: ConnectionsService;
  private readonly budgets: DailyBudgets;
  private readonly sharedBudgets: SharedBudgets | undefined;

  constructor(private readonly options: ServiceOptions) {
    this.clock = options.clock;
    this.meter = new ServiceMetrics({
      providers: () => this.status().providers,
      routes: () => this.routeService.view().routes,
      now: () => options.clock.now(),
      isShared: (providerId) => this.providers.isShared(providerId),
      redis: () => options.hub?.state(),
    });
    this.events = new ServiceEvents(options.clock, (event) => this.meter.recorded(event));
    const { emit, record } = this.events;
    this.agentBook = new AgentsService({
      clock: options.clock,
      dataDir: dirname(options.store.path),
      ...(options.usageWriteMs === undefined ? {} : { writeEveryMs: options.usageWriteMs }),
      pools: () => this.providers.sorted().map((provider) => ({ providerId: provider.id, ...provider.pool.leases() })),
      onChange: () => emit("agents"),
      onTokens: (providerId, tokens) => this.meter.tokens(providerId, tokens),
      onCost: (providerId, usd) => {
        this.meter.cost(providerId, usd);
        this.budgets.spend(providerId, usd);
      },
      windowStart: (providerId, now) => tokenWindowStart(this.providers.get(providerId)?.pool.windows.views(), now),
      windows: (providerId) => this.providers.get(providerId)?.pool.windows.views(),
    });
    const data = options.store.read();
    const writer = new SettingsWriter(options.store);
    this.routeService = new RouteService({
      clock: options.clock,
      settings: data.routes,
      writer,
      onChange: () => emit("routes"),
      onEvent: record,
      assertOpen: () => this.assertOpen(),
      isShared: (providerId) => this.providers.get(providerId)?.options.shared === true,
      ...(options.sharedBreakerOf ? { sharedBreakerOf: options.sharedBreakerOf } : {}),
      ...(options.hub ? { hub: options.hub } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.providers = new ProviderRegistry({
      writer,
      clock: options.clock,
      newId: options.newId,
      ...(options.usageProbe ? { usageProbe: options.usageProbe } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.hub ? { hub: options.hub } : {}),
      onStatusChange: () => emit("status"),
      onEvent: record,
      onLeasesChange: () => this.leaseService.changed(),
      onLeaseExpired: (leaseId) => {
        this.leaseService.expired(leaseId);
        this.agentBook.leaseEnded(leaseId);
      },
    });
    const costOn = (providerId: string, date: string) => this.agentBook.costOn(providerId, date);
    this.budgets = new DailyBudgets({ clock: options.clock, providers: this.providers, onEvent: record, onChange: () => emit("status"), spentOn: costOn, hub: options.hub, log: options.log });
    this.leaseService = new LeaseService({
      budgets: this.budgets, store: options.store, clock: options.clock, providers: this.providers, meter: this.meter,
      leaseTtlMs: options.leaseTtlMs ?? LIMITS.leaseTtlMs.default, onEvent: record,
      assertOpen: () => this.assertOpen(), isClosed: () => this.closed,
    });
    this.views = new ProviderViews({
      providers: this.providers,
      notices: () => [...(options.startupNotices ?? []), ...options.store.notices(), ...this.agentBook.notices()],
      redis: () => options.hub?.state(),
    });
    this.settings = new ProviderSettingsService({
      providers: this.providers,
      views: this.views,
      leases: this.leaseService,
      onStatusChange: () => emit("status"),
      onEvent: record,
      assertOpen: () => this.assertOpen(),
      saving: (change) => this.saving(change),
      followRouteSharing: (providerId) => this.followRouteSharing(providerId),
      configured: (providerId) => (this.budgets.refresh(providerId), this.sharedBudgets?.configured(providerId)), // SPEC §9: at once; shared, in Redis
      ...(options.hostInfo ? { hostInfo: options.hostInfo } : {}),
    });
    this.sharedBudgets = sharedBudgetsFor({ clock: options.clock, hub: options.hub, log: options.log, providers: this.providers, settings: () => this.settings });
    this.upstream = new UpstreamReadings(this.providers, options.clock);
    this.connectionsService = new ConnectionsService({
      dataDir: dirname(options.store.path), proxyUrl: () => this.hostInfo().proxyUrl, providers: this.providers, settings: this.settings,
      ...(options.agentHome ? { agentHome: options.agentHome } : {}),
    });
    for (const [providerId, settings] of Object.entries(data.providers)) this.providers.add(providerId, settings, false);
    this.leaseService.restore();
    for (const provider of this.providers.sorted()) if (provider.options.shared) this.followRouteSharing(provider.id);
    this.sampler = new SeriesSampler({ clock: options.clock, read: () => this.status().providers });
    this.sampler.start();
    this.stopWatchingRedis = options.hub?.onConnectionChange(() => emit("status"));
  }

  // ── reading (electron/service/provider-views.ts) ───────────────────────────
  /** The host listens: restored leases' ttl starts now (SPEC §3). */
  ready(): void {
    this.leaseService.ready();
  }

  hostInfo(): HostInfo {
    const info = this.options.hostInfo?.() ?? { apiUrl: "", version: "", hostName: "" };
    const hostName = this.options.hub?.hostName;
    return hostName === undefined ? info : { ...info, hostName };
  }

  /** SPEC §3 `GET /health` `redis`: only when Redis is configured, never its URL. */
  redisState(): RedisState | undefined {
    return this.options.hub?.state();
  }

  /** The last `minutes` of load per provider, sampled every 2 s (the window's chart). */
  series({ minutes }: Input<"series">): SeriesResponse { return this.sampler.read(minutes ?? LIMITS.seriesMinutes.default); }
  status(): ConcurrencyStatusResponse { return this.budgets.onStatus(this.views.status()); }
  statusOf(providerId: string): ConcurrencyStatusEntry { return this.budgets.onEntry(this.views.statusOf(providerId)); }
  limits(): { limits: LimitView[] } { return this.views.limits(); }
  limit(input: Input<"limit">): LimitView { return this.views.limit(input); }
  cooldown(input: Input<"cooldown">): CooldownView { return this.views.cooldown(input); }
  providerConfig(input: Input<"providerConfig">): ProviderConfigView { return this.views.providerConfig(input); }
  hasProvider(providerId: string): boolean { return this.providers.has(providerId); }
  leases(input: Input<"leases">): LeasesView { return this.leaseService.withStops(this.views.leases(input)); }
  routes(): RoutesView { return this.routeService.view(); }

  historyEvents(): { events: HistoryEvent[] } { return { events: this.events.newestFirst() }; }
  /** Where the history stands now: pass it to `historySince` to get only what came after. */
  historyCursor(): number { return this.events.cursor(); }
  historySince(cursor: number): { events: HistoryEvent[]; cursor: number } { return this.events.since(cursor); }

  /** GET /metrics: the Prometheus exposition of this service's registry. */
  metrics(): Promise<{ contentType: string; text: string }> { return this.meter.exposition(); }

  // ── provider settings (electron/service/provider-settings.ts) ──────────────

  setLimit(input: Input<"setLimit">): LimitView { return this.settings.setLimit(input); }
  setCooldown(input: Input<"setCooldown">): CooldownView { return this.settings.setCooldown(input); }
  setProviderConfig(input: Input<"setProviderConfig">): ProviderConfigView { return this.settings.setProviderConfig(input); }
  removeProvider(input: Input<"removeProvider">): { removed: true } { return this.settings.removeProvider(input); }
  resume(input: Input<"resume">): ConcurrencyStatusEntry { this.budgets.resume(input.providerId); return this.budgets.onEntry(this.settings.resume(input)); }
  dismissNotice(input: Input<"dismissNotice">): ConcurrencyStatusEntry { return this.settings.dismissNotice(input); }
  acceptNotice(input: Input<"acceptNotice">): ConcurrencyStatusEntry { return this.settings.acceptNotice(input); }

  // ── leases (electron/service/lease-service.ts) ─────────────────────────────

  // Releases, undelivered admissions and rides are accepted while closing: a slot is never stranded.

  /** `agent`: who asks, as the proxy found out (SPEC §9); an API lease is its `agentId`. */
  acquire(input: AcquireInput & { agent?: AgentIdentity }): Promise<Admission> {
    return this.agentBook.acquiring(input, (ask) => this.leaseService.acquire(ask));
  }
  /** A proxied request's lease when a slot is free now with nobody queued (a local provider), with no promise; else undefined. */
  acquireNow(providerId: string, agent?: AgentIdentity): string | undefined { return this.agentBook.admittedNow(providerId, agent, (agentId) => this.leaseService.admitNow(providerId, agentId)); }
  undelivered(leaseId: string): void {
    this.leaseService.undelivered(leaseId);
    this.agentBook.leaseEnded(leaseId);
  }
  heartbeat(input: Input<"heartbeat">): { leaseId: string; expiresAt?: number } { return this.leaseService.heartbeat(input); }
  release(input: Input<"release">): { released: boolean } {
    this.agentBook.leaseEnded(input.leaseId);
    return this.leaseService.release(input);
  }
  releaseByHand(input: Input<"releaseByHand">): { released: boolean } {
    this.agentBook.leaseEnded(input.leaseId);
    return this.leaseService.releaseByHand(input);
  }
  /** Resolves once every lease change so far is on disk: a release is answered only after this. */
  leasesSaved(): Promise<void> { return this.leaseService.saved(); }
  /** A proxy request rides on a held lease of this provider (SPEC §6); false = gate it normally. */
  rideLease(leaseId: string, providerId: string): boolean { return this.leaseService.ride(leaseId, providerId); }
  rideRateLimited(leaseId: string, retryAfterMs?: number): void { this.leaseService.rideRateLimited(leaseId, retryAfterMs); }
  stopped(providerId: string, kind: StopKind, agent: AgentIdentity, rideOn?: string): void { this.leaseService.stopped(providerId, kind, agent.label, rideOn); }

  // ── what the proxy reads from upstreams (electron/service/upstream-readings.ts) ──

  /** The provider's rate-limit headers from one answer (SPEC §6). */
  noteUpstreamLimits(providerId: string, headers: ResponseHeaders, status: number): void { this.upstream.limits(providerId, headers, status); }
  /** Plan windows from one answer or in-band event (SPEC §8). */
  noteWindows(providerId: string, reading: WindowReading): void { this.upstream.windows(providerId, reading); }
  /** SPEC §10: windows a client read itself (Claude Code's status line); answers the provider's status. */
  reportWindows({ providerId, windows }: Input<"reportWindows">): ConcurrencyStatusEntry { this.upstream.reported(providerId, windows); return this.statusOf(providerId); }
  /**
   * A used-up window or a reached daily budget (SPEC §8, §9): the proxy answers at once. A request
   * that may wait (`waitable`) is not refused by a window whose reset is within waitForResetMs.
   */
  windowRefusal(providerId: string, waitable = false): ProxyRefusal | undefined {
    return this.upstream.windowRefusal(providerId, waitable) ?? this.budgets.refusal(providerId);
  }
  /** A proxied request that found no working upstream (SPEC §4 `upstreamFailures`), in a few words. */
  noteUpstreamFailure(providerId: string, error: string): void { this.upstream.failure(providerId, error); }
  // ── agents and their usage (electron/service/agents-service.ts, SPEC §9) ────

  agents(): AgentsView { return this.agentBook.agents(); }
  usage(input: Input<"usage">): UsageView { return this.agentBook.usage(input); }
  /** One proxied answer's request, outcome and tokens, for its agent. */
  countAnswer(answer: CountedAnswer): void { this.agentBook.counted(answer); }
  /** The agent holding a lease: requests riding on it are that agent's (SPEC §9). */
  leaseAgent(leaseId: string): string | undefined { return this.agentBook.leaseAgent(leaseId); }
  rode(leaseId: string, agent: AgentIdentity): void { this.agentBook.rode(leaseId, agent); }

  // ── presets and connected agents (electron/service/connections-service.ts, SPEC §10) ──
  presets(): { presets: Preset[] } { return this.connectionsService.presets(); }
  connections(): { connections: ConnectionEntry[] } { return this.connectionsService.connections(); }
  connectAgent(input: Input<"connectAgent">): ConnectAnswer { return this.connectionsService.connect(input); }
  disconnectAgent(input: Input<"disconnectAgent">): ConnectAnswer { return this.connectionsService.disconnect(input); }

  // ── routes (electron/service/route-service.ts) ─────────────────────────────

  // A route whose target is a shared provider answers once Redis has; a local one at once.
  routeAdmit(input: Input<"routeAdmit">): RouteAnswer<RouteAdmission> { return this.routeService.admit(input); }
  routeBlocked(route: RouteKey): RouteAnswer<RouteRefusal | undefined> { return this.routeService.blocked(route); }
  routeOutcome(input: Input<"routeOutcome">): RouteAnswer<RouteEntry> { return this.routeService.outcome(input); }
  routeRelease(input: Input<"routeRelease">): RouteAnswer<RouteEntry> { return this.routeService.release(input); }
  routeReset(route: Input<"routeReset">): RouteAnswer<RouteEntry> { return this.routeService.reset(route); }
  /** The proxy's report when an exchange ends: never throws, accepted while closing; the reason is tamed wire text (SPEC §6). */
  settleRoute(run: RouteRun, verdict: RouteVerdict): void { this.routeService.settle(run, verdict.reason === undefined ? verdict : { ...verdict, reason: tame(verdict.reason) }); }

  /**
   * Call when a provider becomes shared or local again (and for each shared one at start):
   * its routes' breakers move to Redis or back, and the routes view follows.
   */
  updateRouteSharing(targetId: string): Promise<void> { return this.routeService.updateSharing(targetId); }

  /** The host's settings; a shared provider's breakers get the fields changed too (docs/shared.md). */
  setRouteSettings(patch: Input<"setRouteSettings">): RouteAnswer<BreakerSettings> {
    return this.saving(() => this.routeService.setSettings(patch));
  }

  // ── lifecycle and change feed ──────────────────────────────────────────────

  subscribe(listener: (topic: SnapshotTopic) => void): () => void { return this.events.subscribe(listener); }

  /** Answers every waiter, stops timers and writes what is pending. Held leases stay persisted. */
  close(): void {
    if (this.closed) return;
    this.leaseService.close();
    this.agentBook.close();
    this.budgets.close();
    this.sharedBudgets?.close();
    this.sampler.stop();
    this.stopWatchingRedis?.();
    this.closed = true;
    this.providers.disposeAll();
    this.routeService.dispose();
    this.options.store.close();
    this.events.close();
  }

  // ── internals ──────────────────────────────────────────────────────────────

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
