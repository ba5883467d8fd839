// The provider operations of SPEC §3 that change settings: adding a provider by its first limit,
// cooldown, upstream and sharing, removal, resuming and dismissing a notice. Each change is made
// only if it can be saved (the service's `saving`), is recorded in the history and announced.
import type { ConcurrencyStatusEntry, CooldownView, HistoryEvent, HostInfo, LimitView, ProviderConfigView } from "../../shared/types";
import { LIMITS } from "../../shared/limits";
import { newProviderSettings } from "../../shared/provider-settings";
import type { LeaseService } from "./lease-service";
import type { Input } from "./operation-input";
import type { Provider, ProviderRegistry } from "./provider-registry";
import type { ProviderViews } from "./provider-views";
import { checkNotSelf } from "./self-upstream";
import { ServiceError, tooManyProviders } from "./service-error";

export interface ProviderSettingsDeps {
  providers: ProviderRegistry;
  views: ProviderViews;
  leases: LeaseService;
  onStatusChange: () => void;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  /** Throws when the host is closing. */
  assertOpen: () => void;
  /** SPEC §1: makes the change only if it can be saved, and answers once it is. */
  saving: <T>(change: () => T) => T;
  /** A provider's routes move to Redis or back with it; this waits for nobody. */
  followRouteSharing: (providerId: string) => void;
  hostInfo?: () => HostInfo;
  /** A provider's settings changed: what reads them lazily (a daily budget) looks again now. */
  configured?: (providerId: string) => void;
}

export class ProviderSettingsService {
  constructor(private readonly deps: ProviderSettingsDeps) {}

  /** The only way a provider comes into being (SPEC §3). A manual limit clears any auto-reduction. */
  setLimit({ providerId, limit }: Input<"setLimit">): LimitView {
    return this.deps.saving(() => this.applyLimit(providerId, limit));
  }

  private applyLimit(providerId: string, limit: number): LimitView {
    const existing = this.deps.providers.get(providerId);
    if (existing) {
      const before = existing.pool.config();
      existing.pool.setLimit(limit);
      if (before.autoReduced) {
        this.deps.onEvent({
          kind: "restored",
          providerId,
          message: `Limit for ${providerId} set to ${limit} by hand after an automatic reduction to ${before.limit}.`,
        });
      }
    } else {
      if (this.deps.providers.count() >= LIMITS.providers.max) throw tooManyProviders(providerId, LIMITS.providers.max);
      this.deps.providers.add(providerId, newProviderSettings(limit), true);
      this.deps.onEvent({ kind: "provider_added", providerId, message: `Provider ${providerId} added with limit ${limit}.` });
      this.deps.onStatusChange();
    }
    return this.deps.views.limit({ providerId });
  }

  setCooldown({ providerId, cooldownMs }: Input<"setCooldown">): CooldownView {
    const { pool } = this.deps.providers.require(providerId);
    return this.deps.saving(() => {
      pool.setCooldown(cooldownMs);
      return this.deps.views.cooldown({ providerId });
    });
  }

  setProviderConfig({ providerId, shared, ...patch }: Input<"setProviderConfig">): ProviderConfigView {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    if (typeof patch.upstream === "string") checkNotSelf(patch.upstream, this.deps.hostInfo?.());
    if (shared === true && !this.deps.providers.canShare()) {
      // SPEC §7: sharing needs Redis, which this host does not connect to.
      throw new ServiceError(
        "invalid_input",
        "shared must be false: sharing a provider across machines needs Redis, and HEADROOM_REDIS_URL is not set.",
      );
    }
    return this.deps.saving(() => {
      this.deps.providers.configure(provider, patch);
      if (shared !== undefined) this.setShared(provider, shared);
      this.deps.configured?.(providerId);
      this.deps.onStatusChange();
      return this.deps.views.providerConfig({ providerId });
    });
  }

  private setShared(provider: Provider, shared: boolean): void {
    if ((provider.options.shared === true) === shared) return;
    this.deps.providers.setShared(provider, shared);
    this.deps.followRouteSharing(provider.id);
    this.deps.onEvent({
      kind: shared ? "provider_shared" : "provider_unshared",
      providerId: provider.id,
      message: shared
        ? `Provider ${provider.id} is now shared across machines on Redis.`
        : `Provider ${provider.id} is local to this host again.`,
    });
  }

  removeProvider({ providerId }: Input<"removeProvider">): { removed: true } {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    return this.deps.saving(() => this.forget(provider));
  }

  private forget(provider: Provider): { removed: true } {
    const providerId = provider.id;
    this.deps.leases.endAllOf(provider);
    this.deps.providers.remove(provider);
    this.deps.followRouteSharing(providerId);
    this.deps.onEvent({ kind: "provider_removed", providerId, message: `Provider ${providerId} removed.` });
    this.deps.onStatusChange();
    return { removed: true };
  }

  resume({ providerId }: Input<"resume">): ConcurrencyStatusEntry {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    provider.pool.resume();
    return this.deps.providers.entryOf(provider);
  }

  /** SPEC §1 "Accept": the lowered limit stays, the reduction is forgotten. */
  acceptNotice({ providerId }: Input<"acceptNotice">): ConcurrencyStatusEntry {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    return this.deps.saving(() => {
      const before = provider.pool.config();
      provider.pool.acceptReduction();
      if (before.autoReduced) {
        this.deps.onEvent({
          kind: "restored",
          providerId,
          message: `Limit for ${providerId} kept at ${before.limit}: the automatic reduction from ${before.autoReducedFrom ?? before.limit + 1} was accepted.`,
        });
      }
      return this.deps.providers.entryOf(provider);
    });
  }

  dismissNotice({ providerId }: Input<"dismissNotice">): ConcurrencyStatusEntry {
    this.deps.assertOpen();
    const provider = this.deps.providers.require(providerId);
    return this.deps.saving(() => {
      provider.pool.dismissNotice();
      return this.deps.providers.entryOf(provider);
    });
  }
}
