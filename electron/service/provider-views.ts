// What the service answers about its providers (SPEC §3 reads): each view is built from the
// registry at the moment it is asked, so every transport sees the same numbers.
import type {
  ConcurrencyStatusEntry,
  ConcurrencyStatusResponse,
  CooldownView,
  LeasesView,
  LimitView,
  ProviderConfigView,
  RedisState,
} from "../../shared/types";
import { configView } from "../../shared/provider-settings";
import type { Input } from "./operation-input";
import type { ProviderRegistry } from "./provider-registry";

export interface ProviderViewsDeps {
  providers: ProviderRegistry;
  /** Problems with the data folder a person should see (settings or leases not saved). */
  notices: () => string[];
  /** SPEC §7: the Redis connection, only when Redis is configured. */
  redis: () => RedisState | undefined;
}

export class ProviderViews {
  constructor(private readonly deps: ProviderViewsDeps) {}

  status(): ConcurrencyStatusResponse {
    const { providers: registry } = this.deps;
    const providers: ConcurrencyStatusEntry[] = [];
    for (const provider of registry.sorted()) providers.push(registry.entryOf(provider));
    const notices = this.deps.notices();
    const redis = this.deps.redis();
    return { providers, ...(notices.length > 0 ? { notices } : {}), ...(redis ? { redis } : {}) };
  }

  statusOf(providerId: string): ConcurrencyStatusEntry {
    return this.deps.providers.entryOf(this.deps.providers.require(providerId));
  }

  limits(): { limits: LimitView[] } {
    return { limits: this.deps.providers.sorted().map(({ pool }) => ({ providerId: pool.providerId, limit: pool.config().limit })) };
  }

  limit({ providerId }: Input<"limit">): LimitView {
    return { providerId, limit: this.deps.providers.require(providerId).pool.config().limit };
  }

  cooldown({ providerId }: Input<"cooldown">): CooldownView {
    return { providerId, cooldownMs: this.deps.providers.require(providerId).pool.config().cooldownMs };
  }

  providerConfig({ providerId }: Input<"providerConfig">): ProviderConfigView {
    const { pool, options } = this.deps.providers.require(providerId);
    return configView(providerId, pool.config(), options);
  }

  leases({ providerId }: Input<"leases">): LeasesView {
    return this.deps.providers.require(providerId).pool.leases();
  }
}
