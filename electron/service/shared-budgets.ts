// A shared provider's daily budget is one for all its hosts (SPEC §8 "Each host's settings",
// §9): the amount lives in Redis beside the day's spend (shared-spend.ts). A host whose setting
// changes writes it there; every host reads it every 2 s and takes it as its own setting, so
// the status, the settings file and the pause agree on every host. A provider that becomes
// shared while Redis holds no amount seeds Redis with this host's; one Redis holds wins, as the
// provider's other settings do (SPEC §7).
import type { Clock, TimerHandle } from "../engine/clock";
import type { SharedHub } from "../shared-pool/shared-hub";
import { SharedBudgetAmount, type SharedBudget } from "../shared-pool/shared-spend";
import type { ProviderRegistry } from "./provider-registry";
import type { ProviderSettingsService } from "./provider-settings";

const READ_MS = 2_000;

export interface SharedBudgetsDeps {
  clock: Clock;
  hub: SharedHub;
  /** The providers shared now. */
  shared(): string[];
  /** The provider's budget as this host's settings hold it. */
  amountOf(providerId: string): number | undefined;
  /** Takes Redis's amount as this host's setting (saved, and the budget looks again). */
  adopt(providerId: string, usd: number | undefined): void;
  log?: ((message: string, error?: unknown) => void) | undefined;
}

const asSetting = (budget: SharedBudget) => (budget === "off" ? undefined : budget);

export class SharedBudgets {
  private readonly amounts: SharedBudgetAmount;
  /** What Redis held at the last read or write: a setting that differs was changed on this host. */
  private readonly known = new Map<string, SharedBudget>();
  /** Bumped by each change on this host: a read sent before it must not undo it. */
  private readonly changes = new Map<string, number>();
  private readonly busy = new Set<string>();
  private timer: TimerHandle | undefined;

  constructor(private readonly deps: SharedBudgetsDeps) {
    this.amounts = new SharedBudgetAmount(deps.hub);
    this.arm();
  }

  /** The provider's settings changed on this host (PUT, CLI, window). */
  configured(providerId: string): void {
    if (!this.deps.shared().includes(providerId)) {
      this.known.delete(providerId);
      return;
    }
    // Just shared: Redis's amount wins if it has one (the read seeds it otherwise).
    if (!this.known.has(providerId)) return this.sync(providerId);
    const usd = this.deps.amountOf(providerId);
    if (asSetting(this.known.get(providerId)) === usd) return;
    this.changes.set(providerId, (this.changes.get(providerId) ?? 0) + 1);
    this.write(providerId, usd);
  }

  close(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = this.deps.clock.setTimeout(() => {
      for (const providerId of this.deps.shared()) this.sync(providerId);
      this.arm();
    }, READ_MS);
  }

  private write(providerId: string, usd: number | undefined): void {
    this.known.set(providerId, usd ?? "off");
    this.amounts.write(providerId, usd).catch((error: unknown) => this.deps.log?.(`The budget of ${providerId} could not be written to Redis`, error));
  }

  /** Reads Redis's amount: takes it, or seeds Redis with this host's when it holds none. */
  private sync(providerId: string): void {
    // While Redis is unreachable reads wait in its queue: one at a time per provider.
    if (this.busy.has(providerId)) return;
    this.busy.add(providerId);
    const change = this.changes.get(providerId) ?? 0;
    this.amounts
      .read(providerId)
      .then(
        (budget) => {
          if ((this.changes.get(providerId) ?? 0) !== change || !this.deps.shared().includes(providerId)) return;
          const usd = this.deps.amountOf(providerId);
          if (budget === undefined) {
            if (usd !== undefined) this.write(providerId, usd);
            else this.known.set(providerId, undefined);
            return;
          }
          this.known.set(providerId, budget);
          if (asSetting(budget) === usd) return;
          try {
            this.deps.adopt(providerId, asSetting(budget));
          } catch (error) {
            this.deps.log?.(`The budget of ${providerId} from Redis could not be saved`, error);
          }
        },
        (error: unknown) => this.deps.log?.(`The budget of ${providerId} could not be read from Redis`, error),
      )
      .finally(() => this.busy.delete(providerId));
  }
}

/** The service's wiring: the registry's shared providers, Redis's amount saved as any setting change is. */
export function sharedBudgetsFor(deps: {
  clock: Clock;
  hub: SharedHub | undefined;
  log?: ((message: string, error?: unknown) => void) | undefined;
  providers: Pick<ProviderRegistry, "ids" | "isShared" | "get">;
  settings: () => Pick<ProviderSettingsService, "setProviderConfig">;
}): SharedBudgets | undefined {
  const { hub, providers } = deps;
  if (!hub) return undefined;
  return new SharedBudgets({
    clock: deps.clock,
    hub,
    log: deps.log,
    shared: () => providers.ids().filter((id) => providers.isShared(id)),
    amountOf: (id) => providers.get(id)?.options.dailyBudgetUsd,
    adopt: (providerId, usd) => deps.settings().setProviderConfig({ providerId, dailyBudgetUsd: usd ?? null }),
  });
}
