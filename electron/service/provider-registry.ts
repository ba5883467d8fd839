// The providers the service knows: one engine pool each, plus the options that live beside the
// pool (upstream, usage gate, ...), held as the record's own `ProviderOptions` and written back to
// the settings store whole: the pool's config and the options make the provider's settings.
import type { ConcurrencyStatusEntry, HistoryEvent, UsageGateConfig } from "../../shared/types";
import {
  compact,
  patched,
  splitSettings,
  statusOptions,
  type PoolConfig,
  type ProviderConfigPatch,
  type ProviderOptions,
  type ProviderSettings,
} from "../../shared/provider-settings";
import type { StoredLease } from "../../shared/schemas";
import type { Clock } from "../engine/clock";
import type { PersistedLease, PoolDeps, ProviderPool, UsageProbe } from "../engine/pool-types";
import { createProviderPool } from "../engine/provider-pool";
import { StoppedAgents } from "./stopped-agents";
import { UpstreamFailureBook } from "../engine/upstream-failures";
import type { SharedHub } from "../shared-pool/shared-hub";
import { SharedProviderPool } from "../shared-pool/shared-provider-pool";
import { unknownProvider } from "./service-error";
import type { SettingsWriter } from "./settings-writer";

export interface Provider {
  readonly id: string;
  /** Replaced when the provider is shared or made local again (SPEC §7). */
  pool: ProviderPool;
  /**
   * Everything else the provider's settings hold, as stored (a field at its implied value is
   * absent). `shared` stays true here while Redis is not configured (SPEC §7).
   */
  options: ProviderOptions;
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
  /** SPEC §4: what this host's proxy found of each provider's upstream; not shared on Redis. */
  readonly upstreamFailures: UpstreamFailureBook;
  /** SPEC §8 "Who stopped": the agents a used-up window refused, per provider. */
  readonly stopped = new StoppedAgents();

  constructor(private readonly deps: RegistryDeps) {
    this.upstreamFailures = new UpstreamFailureBook(deps.clock, deps.onStatusChange);
  }

  get(providerId: string): Provider | undefined {
    return this.byId.get(providerId);
  }

  /** Whether its pool lives in Redis: asked on every admission (metrics labels), so no status() here. */
  isShared(providerId: string): boolean {
    return this.byId.get(providerId)?.pool instanceof SharedProviderPool;
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

  count(): number {
    return this.byId.size;
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
    const { config, options } = splitSettings(settings);
    const provider: Provider = { id: providerId, pool: this.poolFor(providerId, options, config, []), options };
    provider.pool.windows.setHoldNewAtPercent(options.holdNewAtPercent);
    provider.pool.windows.setOverage(options.overage);
    if (options.shared && !this.deps.hub) {
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
    if ((provider.options.shared === true) === shared) return;
    const old = provider.pool;
    provider.options = compact({ ...provider.options, shared });
    provider.pool = this.poolFor(provider.id, provider.options, old.config(), old.heldLeases());
    provider.pool.windows.setHoldNewAtPercent(provider.options.holdNewAtPercent);
    provider.pool.windows.setOverage(provider.options.overage);
    old.dispose();
    this.persist(provider.id);
  }

  /** Whether sharing is possible on this host: Redis is configured. */
  canShare(): boolean {
    return this.deps.hub !== undefined;
  }

  private poolFor(
    providerId: string,
    { shared, usageGate }: ProviderOptions,
    config: PoolConfig,
    held: PersistedLease[],
  ): ProviderPool {
    const deps = {
      providerId,
      clock: this.deps.clock,
      onChange: this.deps.onStatusChange,
      onConfigChange: () => this.persist(providerId),
      // The window_reset line names who stopped on the window (SPEC §8).
      onEvent: (event: Omit<HistoryEvent, "at" | "providerId">) => this.deps.onEvent(this.stopped.told({ ...event, providerId })),
      onLeasesChange: this.deps.onLeasesChange,
      onLeaseExpired: this.deps.onLeaseExpired,
      ...(this.deps.log ? { log: this.deps.log } : {}),
    } satisfies Partial<PoolDeps>;
    const hub = this.deps.hub;
    const probe = this.probeFor(usageGate);
    if (shared && hub) return new SharedProviderPool(config, { ...deps, hub, newId: this.deps.newId, adopt: held, ...(probe ? { usageProbe: probe } : {}) });
    const pool = createProviderPool(config, { ...deps, newId: this.deps.newId, ...(probe ? { usageProbe: probe } : {}) });
    for (const lease of held) pool.restoreLease(lease, lease.ttlMs);
    return pool;
  }

  /** Applies a configure patch by the record's patch rules (`null` clears) and writes it. */
  configure(provider: Provider, patch: Omit<ProviderConfigPatch, "shared">): void {
    const before = provider.options;
    provider.options = patched(provider.options, patch);
    if (provider.options.usageGate !== before.usageGate) provider.pool.setUsageProbe(this.probeFor(provider.options.usageGate));
    if (patch.holdNewAtPercent !== undefined) provider.pool.windows.setHoldNewAtPercent(provider.options.holdNewAtPercent);
    if (patch.overage !== undefined) provider.pool.windows.setOverage(provider.options.overage);
    // What failed was the old upstream: a new one starts clean, so `Set upstream` clears the item.
    if (patch.upstream !== undefined && provider.options.upstream !== before.upstream) this.upstreamFailures.forget(provider.id);
    this.persist(provider.id);
  }

  /** Forgets the provider (its waiters are answered `removed`) and its stored settings and leases. */
  remove(provider: Provider): void {
    this.byId.delete(provider.id);
    this.upstreamFailures.forget(provider.id);
    this.stopped.forget(provider.id);
    provider.pool.dispose();
    this.deps.writer.forgetProvider(provider.id);
  }

  /** The pool's view plus the options a status shows, so the window learns of their change from the push. */
  entryOf({ id, pool, options }: Provider): ConcurrencyStatusEntry {
    const upstreamFailures = this.upstreamFailures.of(id);
    const status = pool.status();
    const stoppedAgents = status.pauseKind === "window" ? this.stopped.labels(id) : undefined;
    return { ...status, ...statusOptions(options), ...(upstreamFailures ? { upstreamFailures } : {}), ...(stoppedAgents ? { stoppedAgents } : {}) };
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
    this.upstreamFailures.dispose();
  }

  private probeFor(gate: UsageGateConfig | undefined) {
    if (!gate || !this.deps.usageProbe) return undefined;
    return { probe: this.deps.usageProbe(gate), pollMs: gate.pollMs };
  }

  private persist(providerId: string): void {
    const provider = this.byId.get(providerId);
    if (!provider) return;
    const settings: ProviderSettings = { ...provider.pool.config(), ...provider.options };
    this.deps.writer.saveProvider(providerId, settings);
  }
}
