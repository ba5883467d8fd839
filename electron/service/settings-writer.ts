// The one place the service changes the settings the user set: providers and breaker settings
// each have one method, so what is written, and when, is read in one file. (Held leases are
// the lease journal's, which batches them; only a removed provider's are dropped here.)
import type { ProviderSettings } from "../../shared/schemas";
import type { BreakerSettings } from "../../shared/types";
import type { SettingsStore } from "../settings/settings-store";

export class SettingsWriter {
  constructor(private readonly store: SettingsStore) {}

  saveProvider(providerId: string, settings: ProviderSettings): void {
    this.store.setProvider(providerId, settings);
  }

  /** Forgets a provider's settings and its held leases. */
  forgetProvider(providerId: string): void {
    this.store.setProvider(providerId, undefined);
    this.store.leases.write(this.store.leases.read().filter((lease) => lease.providerId !== providerId));
  }

  saveRoutes(settings: BreakerSettings): void {
    this.store.update((draft) => {
      draft.routes = { ...settings };
    });
  }
}
