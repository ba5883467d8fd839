// The providers the service knows: one engine pool each, plus the settings that live beside the
// pool (upstream, usage gate). Every change to them is written back to the settings store here.
import type { ConcurrencyStatusEntry, HistoryEvent, UsageGateConfig } from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import { canonicalUrl, type ProviderConfigPatch, type ProviderSettings, type StoredLease } from "../../shared/schemas";
import type { Clock } from "../engine/clock";
import type { PersistedLease, PoolConfig, PoolDeps, ProviderPool, UsageProbe } from "../engine/pool-types";
import { createProviderPool } from "../engine/provider-pool";
import type { SharedHub } from "../shared-pool/shared-hub";
import { SharedProviderPool } from "../shared-pool/shared-provider-pool";
import { unknownProvider } from "./service-error";
import type { SettingsWriter } from "./settings-writer";

export interface Provider {
  readonly id: string;
  /** Replaced when the provider is shared or made local again (SPEC §7). */
  pool: ProviderPool;
  /** Kept on Redis (SPEC §7); stays true in the settings while Redis is not configured. */
  shared: boolean;
  upstream?: string | undefined;
  usageGate?: UsageGateConfig | undefined;
  /** The proxy's wait for an upstream's headers and longest silence in a stream (SPEC §1). */
  responseTimeoutMs: number;
  /** SPEC §8, kept on this host (like the upstream); absent = no hold. */
  holdNewAtPercent?: number;
}

export interface RegistryDeps {
  writer: SettingsWriter;
  clock: Clock;
  newId: () => string;
  usageProbe?: (config: UsageGateConfig) => UsageProbe;
  log?: (message: string, state?: unknown) => void;
  onStatusChange: () => void;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  onLeasesChange: () => void;
  onLeaseExpired: (leaseId: string) => void;
  /** The Redis this host shares providers on (SPEC §7); absent = every provider is local. */
  hub?: SharedHub;
}

export class ProviderRegistry {
  private readonly byId = new Map<string, Provider>();

  constructor(private readonly deps: RegistryDeps) {}

  get(providerId: string): Provider | undefined {
    return this.byId.get(providerId);
  }

  /** The provider, or the 404 that lists the known ones. */
  require(providerId: string): Provider {
    const provider = this.byId.get(providerId);
    if (!provider) throw unknownProvider(providerId, [...this.byId.keys()]);
    return provider;
  }

  has(providerId: string): boolean {
    return this.byId.has(providerId);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** In id order, so every view lists providers the same way. */
  sorted(): Provider[] {
    return [...this.byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Creates the pool for stored or new settings; `persist` writes a new provider to disk. */
  add(providerId: string, settings: ProviderSettings, persist: boolean): Provider {
    const { upstream, usageGate, responseTimeoutMs, shared, holdNewAtPercent, ...config } = settings;
    const provider: Provider = {
      id: providerId,
      pool: this.poolFor(providerId, shared === true, usageGate, config, []),
      shared: shared === true,
      ...(upstream === undefined ? {} : { upstream }),
      ...(usageGate === undefined ? {} : { usageGate }),
      responseTimeoutMs: responseTimeoutMs ?? LIMITS.responseTimeoutMs.default,
      ...(holdNewAtPercent === undefined ? {} : { holdNewAtPercent }),
    };
    provider.pool.windows.setHoldNewAtPercent(holdNewAtPercent);
    if (provider.shared && !this.deps.hub) {
      this.deps.log?.(`Provider ${providerId} is shared, but HEADROOM_REDIS_URL is not set: it runs locally on this host until it is.`);
    }
    this.byId.set(providerId, provider);
    if (persist) this.persist(providerId);
    return provider;
  }

  /**
   * Shares the provider on Redis or makes it local again (SPEC §7). Held leases move with it and
   * count at once; waiters of the old pool are answered `removed`, and the service queues them
   * again on the new one.
   */
  setShared(provider: Provider, shared: boolean): void {
    if (provider.shared === shared) return;
    const old = provider.pool;
    provider.shared = shared;
    provider.pool = this.poolFor(provider.id, shared, provider.usageGate, old.config(), old.heldLeases());
    provider.pool.windows.setHoldNewAtPercent(provider.holdNewAtPercent);
    old.dispose();
    this.persist(provider.id);
  }

  /** Whether sharing is possible on this host: Redis is configured. */
  canShare(): boolean {
    return this.deps.hub !== undefined;
  }

  private poolFor(
    providerId: string,
    shared: boolean,
    usageGate: UsageGateConfig | undefined,
    config: PoolConfig,
    held: PersistedLease[],
  ): ProviderPool {
    const deps = {
      providerId,
      clock: this.deps.clock,
      onChange: this.deps.onStatusChange,
      onConfigChange: () => this.persist(providerId),
      onEvent: (event: Omit<HistoryEvent, "at" | "providerId">) => this.deps.onEvent({ ...event, providerId }),
      onLeasesChange: this.deps.onLeasesChange,
      onLeaseExpired: this.deps.onLeaseExpired,
      ...(this.deps.log ? { log: this.deps.log } : {}),
    } satisfies Partial<PoolDeps>;
    const hub = this.deps.hub;
    const probe = this.probeFor(usageGate);
    if (shared && hub) return new SharedProviderPool(config, { ...deps, hub, adopt: held, ...(probe ? { usageProbe: probe } : {}) });
    const pool = createProviderPool(config, { ...deps, newId: this.deps.newId, ...(probe ? { usageProbe: probe } : {}) });
    for (const lease of held) pool.restoreLease(lease, lease.ttlMs);
    return pool;
  }

  /** Applies an upstream / usage-gate / timeout patch (`null` clears) and writes it. */
  configure(provider: Provider, patch: Omit<ProviderConfigPatch, "shared">): void {
    if (patch.upstream !== undefined) provider.upstream = patch.upstream === null ? undefined : canonicalUrl(patch.upstream);
    if (patch.usageGate !== undefined) {
      const gate = patch.usageGate;
      provider.usageGate =
        gate === null
          ? undefined
          : {
              url: canonicalUrl(gate.url),
              pollMs: gate.pollMs ?? LIMITS.pollMs.default,
              ...(gate.headers === undefined ? {} : { headers: gate.headers }),
            };
      provider.pool.setUsageProbe(this.probeFor(provider.usageGate));
    }
    if (patch.responseTimeoutMs !== undefined) provider.responseTimeoutMs = patch.responseTimeoutMs;
    if (patch.holdNewAtPercent !== undefined) {
      if (patch.holdNewAtPercent === null) delete provider.holdNewAtPercent;
      else provider.holdNewAtPercent = patch.holdNewAtPercent;
      provider.pool.windows.setHoldNewAtPercent(provider.holdNewAtPercent);
    }
    this.persist(provider.id);
  }

  /** Forgets the provider (its waiters are answered `removed`) and its stored settings and leases. */
  remove(provider: Provider): void {
    this.byId.delete(provider.id);
    provider.pool.dispose();
    this.deps.writer.forgetProvider(provider.id);
  }

  /** The pool's view plus the upstream, so the window learns of an upstream change from the push. */
  entryOf({ pool, upstream }: Provider): ConcurrencyStatusEntry {
    const entry = pool.status();
    return upstream === undefined ? entry : { ...entry, upstream };
  }

  /** Held leases worth a restart: only those that expire (proxy leases end with their connection). */
  leasesToKeep(): StoredLease[] {
    const leases: StoredLease[] = [];
    for (const { id, pool } of this.byId.values()) {
      for (const lease of pool.heldLeases()) {
        if (lease.expiresAt !== undefined) leases.push({ ...lease, providerId: id });
      }
    }
    return leases;
  }

  /** The host is stopping: held leases stay where a restart finds them (on disk, and in Redis for shared ones). */
  disposeAll(): void {
    for (const { pool } of this.byId.values()) pool.dispose({ keepLeases: true });
  }

  private probeFor(gate: UsageGateConfig | undefined) {
    if (!gate || !this.deps.usageProbe) return undefined;
    return { probe: this.deps.usageProbe(gate), pollMs: gate.pollMs };
  }

  private persist(providerId: string): void {
    const provider = this.byId.get(providerId);
    if (!provider) return;
    const settings: ProviderSettings = {
      ...provider.pool.config(),
      ...(provider.upstream === undefined ? {} : { upstream: provider.upstream }),
      ...(provider.usageGate === undefined ? {} : { usageGate: provider.usageGate }),
      ...(provider.responseTimeoutMs === LIMITS.responseTimeoutMs.default
        ? {}
        : { responseTimeoutMs: provider.responseTimeoutMs }),
      ...(provider.shared ? { shared: true } : {}),
      ...(provider.holdNewAtPercent === undefined ? {} : { holdNewAtPercent: provider.holdNewAtPercent }),
    };
    this.deps.writer.saveProvider(providerId, settings);
  }
}
