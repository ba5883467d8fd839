// The one object every transport calls: it composes the engine with settings, persistence,
// history and change notification, so HTTP, IPC, the CLI and the proxy all behave the same.
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
  UsageGateConfig,
} from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import type { ProviderConfigPatch } from "../../shared/validate";
import type { Clock, TimerHandle } from "../engine/clock";
import type { AdmitResult, RouteBreaker } from "../engine/breaker-types";
import type { PoolConfig, ProviderPool, UsageProbe } from "../engine/pool-types";
import { createProviderPool } from "../engine/provider-pool";
import { createRouteBreaker } from "../engine/route-breaker";
import type { ProviderSettings, StoredLease } from "../settings/settings-schema";
import type { SettingsStore } from "../settings/settings-store";
import { HistoryLog } from "./history-log";
import { LeaseBook } from "./lease-book";
import { ServiceError } from "./service-error";

const LEASE_WRITE_MS = 50;

export type Topic = "status" | "routes" | "history";

export interface ServiceOptions {
  store: SettingsStore;
  clock: Clock;
  newId: () => string;
  leaseTtlMs?: number;
  usageProbe?: (config: UsageGateConfig) => UsageProbe;
  log?: (message: string, state?: unknown) => void;
}

export interface AcquireInput {
  providerId: string;
  agentId?: string;
  waiterId?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** API leases expire unless heartbeated; proxy leases pass false (the connection is the lease). */
  expires?: boolean;
}

interface Provider {
  pool: ProviderPool;
  upstream?: string;
  usageGate?: UsageGateConfig;
}

export class HeadroomService {
  private readonly providers = new Map<string, Provider>();
  private readonly breaker: RouteBreaker;
  private readonly history = new HistoryLog();
  private readonly book: LeaseBook;
  private readonly listeners = new Set<(topic: Topic) => void>();
  private readonly leaseTtlMs: number;
  private closed = false;
  private leaseWrite: TimerHandle | undefined;
  private writtenLeases: string;

  constructor(private readonly options: ServiceOptions) {
    this.leaseTtlMs = options.leaseTtlMs ?? LIMITS.leaseTtlMs.default;
    this.book = new LeaseBook(() => options.clock.now());
    const data = options.store.read();
    this.writtenLeases = JSON.stringify(data.leases);
    this.breaker = createRouteBreaker({
      clock: options.clock,
      settings: data.routes,
      onChange: () => this.emit("routes"),
      onEvent: (event) => this.record(event),
    });
    for (const [providerId, settings] of Object.entries(data.providers)) this.addPool(providerId, settings);
    for (const lease of data.leases) {
      const provider = this.providers.get(lease.providerId);
      if (!provider) continue;
      provider.pool.restoreLease(lease, this.leaseTtlMs);
      this.book.hold(lease.leaseId, lease.providerId);
    }
  }

  // ── reading ────────────────────────────────────────────────────────────────

  status(): ConcurrencyStatusResponse {
    const providers: ConcurrencyStatusEntry[] = [];
    for (const provider of this.sorted()) providers.push(this.entryOf(provider));
    const notices = this.options.store.notices();
    return notices.length > 0 ? { providers, notices } : { providers };
  }

  statusOf(providerId: string): ConcurrencyStatusEntry {
    return this.entryOf(this.provider(providerId));
  }

  /** The pool's view plus the upstream, so the window learns of an upstream change from the push. */
  private entryOf({ pool, upstream }: Provider): ConcurrencyStatusEntry {
    const entry = pool.status();
    return upstream === undefined ? entry : { ...entry, upstream };
  }

  limits(): { limits: LimitView[] } {
    return { limits: this.sorted().map(({ pool }) => ({ providerId: pool.providerId, limit: pool.config().limit })) };
  }

  limit(providerId: string): LimitView {
    return { providerId, limit: this.provider(providerId).pool.config().limit };
  }

  cooldown(providerId: string): CooldownView {
    return { providerId, cooldownMs: this.provider(providerId).pool.config().cooldownMs };
  }

  providerConfig(providerId: string): ProviderConfigView {
    const { pool, upstream, usageGate } = this.provider(providerId);
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
    return this.provider(providerId).pool.leases();
  }

  routes(): RoutesView {
    return { routes: this.breaker.snapshot(), settings: this.breaker.settings() };
  }

  historyEvents(): { events: HistoryEvent[] } {
    return { events: this.history.newestFirst() };
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
      const settings: ProviderSettings = {
        limit,
        cooldownMs: LIMITS.cooldownMs.default,
        autoReduced: false,
        noticeDismissed: false,
      };
      this.addPool(providerId, settings);
      this.persistProvider(providerId);
      this.record({ kind: "provider_added", providerId, message: `Provider ${providerId} added with limit ${limit}.` });
      this.emit("status");
    }
    return this.limit(providerId);
  }

  setCooldown(providerId: string, cooldownMs: number): CooldownView {
    this.provider(providerId).pool.setCooldown(cooldownMs);
    return this.cooldown(providerId);
  }

  setProviderConfig(providerId: string, patch: ProviderConfigPatch): ProviderConfigView {
    const provider = this.provider(providerId);
    if (patch.upstream !== undefined) provider.upstream = patch.upstream ?? undefined;
    if (patch.usageGate !== undefined) {
      provider.usageGate = patch.usageGate ?? undefined;
      provider.pool.setUsageProbe(this.probeFor(provider.usageGate));
    }
    this.persistProvider(providerId);
    this.emit("status");
    return this.providerConfig(providerId);
  }

  removeProvider(providerId: string): { removed: true } {
    const provider = this.provider(providerId);
    this.providers.delete(providerId);
    for (const lease of provider.pool.heldLeases()) this.book.end(lease.leaseId);
    provider.pool.dispose();
    this.options.store.update((draft) => {
      delete draft.providers[providerId];
      draft.leases = draft.leases.filter((lease) => lease.providerId !== providerId);
    });
    this.record({ kind: "provider_removed", providerId, message: `Provider ${providerId} removed.` });
    this.emit("status");
    return { removed: true };
  }

  resume(providerId: string): ConcurrencyStatusEntry {
    const provider = this.provider(providerId);
    provider.pool.resume();
    return this.entryOf(provider);
  }

  dismissNotice(providerId: string): ConcurrencyStatusEntry {
    const provider = this.provider(providerId);
    provider.pool.dismissNotice();
    return this.entryOf(provider);
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  async acquire(input: AcquireInput): Promise<Admission> {
    this.assertOpen();
    const { pool } = this.provider(input.providerId);
    const result = await pool.acquire({
      ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
      ...(input.waiterId === undefined ? {} : { waiterId: input.waiterId }),
      ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.expires === false ? {} : { ttlMs: this.leaseTtlMs }),
    });
    if (!result.ok) {
      switch (result.failure.kind) {
        case "timeout":
          throw new ServiceError(
            "queue_timeout",
            `No slot of ${input.providerId} became free within ${input.timeoutMs ?? 0} ms; try again later or raise its limit.`,
          );
        case "removed":
          if (this.closed) throw this.shuttingDown();
          throw this.unknownProvider(input.providerId);
        case "aborted":
          throw new ServiceError("unavailable", "The request was abandoned while it waited.");
      }
    }
    const { lease } = result;
    this.book.hold(lease.leaseId, lease.providerId);
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
    if (!lease) throw this.unknownLease(leaseId);
    return { leaseId, ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }) };
  }

  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): { released: boolean } {
    const pool = this.poolOfLease(leaseId);
    if (pool?.release(leaseId, outcome, retryAfterMs)) {
      this.book.end(leaseId);
      return { released: true };
    }
    if (this.book.endedRecently(leaseId)) return { released: false };
    throw this.unknownLease(leaseId);
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
    this.writeLeases();
    this.closed = true;
    for (const { pool } of this.providers.values()) pool.dispose();
    this.breaker.dispose();
    this.options.store.flush();
    this.listeners.clear();
  }

  // ── internals ──────────────────────────────────────────────────────────────

  private addPool(providerId: string, settings: ProviderSettings): void {
    const config: PoolConfig = {
      limit: settings.limit,
      cooldownMs: settings.cooldownMs,
      autoReduced: settings.autoReduced,
      noticeDismissed: settings.noticeDismissed,
      ...(settings.autoReducedFrom === undefined ? {} : { autoReducedFrom: settings.autoReducedFrom }),
    };
    const probe = this.probeFor(settings.usageGate);
    const pool = createProviderPool(config, {
      providerId,
      clock: this.options.clock,
      newId: this.options.newId,
      onChange: () => this.emit("status"),
      onConfigChange: () => this.persistProvider(providerId),
      onEvent: (event) => this.record({ ...event, providerId }),
      onLeasesChange: () => this.scheduleLeaseWrite(),
      ...(this.options.log ? { log: this.options.log } : {}),
      ...(probe ? { usageProbe: probe } : {}),
    });
    this.providers.set(providerId, {
      pool,
      ...(settings.upstream === undefined ? {} : { upstream: settings.upstream }),
      ...(settings.usageGate === undefined ? {} : { usageGate: settings.usageGate }),
    });
  }

  private probeFor(gate: UsageGateConfig | undefined) {
    if (!gate || !this.options.usageProbe) return undefined;
    return { probe: this.options.usageProbe(gate), pollMs: gate.pollMs };
  }

  private persistProvider(providerId: string): void {
    const provider = this.providers.get(providerId);
    if (!provider) return;
    const settings: ProviderSettings = {
      ...provider.pool.config(),
      ...(provider.upstream === undefined ? {} : { upstream: provider.upstream }),
      ...(provider.usageGate === undefined ? {} : { usageGate: provider.usageGate }),
    };
    this.options.store.update((draft) => {
      draft.providers[providerId] = settings;
    });
  }

  /**
   * Leases change on every admission, so their file write is coalesced (at most one per
   * LEASE_WRITE_MS); close() writes whatever is pending.
   */
  private scheduleLeaseWrite(): void {
    if (this.leaseWrite !== undefined || this.closed) return;
    this.leaseWrite = this.options.clock.setTimeout(() => this.writeLeases(), LEASE_WRITE_MS);
  }

  /** Only leases that expire are persisted: proxy leases end with their connection. */
  private writeLeases(): void {
    if (this.leaseWrite !== undefined) this.options.clock.clearTimeout(this.leaseWrite);
    this.leaseWrite = undefined;
    const leases: StoredLease[] = [];
    for (const [providerId, { pool }] of this.providers) {
      for (const lease of pool.heldLeases()) {
        if (lease.expiresAt !== undefined) leases.push({ ...lease, providerId });
      }
    }
    // Proxy traffic churns only TTL-less leases: an unchanged list is not worth a file write.
    const written = JSON.stringify(leases);
    if (written === this.writtenLeases) return;
    this.writtenLeases = written;
    this.options.store.update((draft) => {
      draft.leases = leases;
    });
  }

  private record(event: Omit<HistoryEvent, "at">): void {
    this.history.add({ at: this.options.clock.now(), ...event });
    this.emit("history");
  }

  private emit(topic: Topic): void {
    for (const listener of this.listeners) listener(topic);
  }

  private sorted(): Provider[] {
    return [...this.providers.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, p]) => p);
  }

  private provider(providerId: string): Provider {
    const provider = this.providers.get(providerId);
    if (!provider) throw this.unknownProvider(providerId);
    return provider;
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

  private unknownProvider(providerId: string): ServiceError {
    const known = [...this.providers.keys()].sort();
    const list = known.length > 0 ? `known providers: ${known.join(", ")}` : "no providers are configured yet";
    return new ServiceError(
      "unknown_provider",
      `Unknown provider ${providerId} (${list}). Create it with PUT /concurrency/limits/${providerId}.`,
    );
  }

  private unknownLease(leaseId: string): ServiceError {
    return new ServiceError("unknown_lease", `Lease ${leaseId} is not held: it expired, was released, or never existed.`);
  }

  private assertOpen(): void {
    if (this.closed) throw this.shuttingDown();
  }

  private shuttingDown(): ServiceError {
    return new ServiceError("unavailable", "Headroom is shutting down; try again once it restarts.");
  }
}
