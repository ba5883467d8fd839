// What the user can ask for, each one bridge call. A successful answer is written into the
// store at once, so a control does not snap back to the old value until the push arrives.
import type { Bridge, Result } from "../../shared/contract";
import { IN_STATUS, type ProviderConfigPatch } from "../../shared/provider-settings";
import type { Preset } from "../../shared/presets";
import type { BreakerSettings, ConcurrencyStatusEntry, ProviderConfigView, RouteKey } from "../../shared/types";
import { applyEntry, applyRoutes } from "./apply-snapshots";
import type { HeadroomStore } from "./headroom-store";
import { mergeSeries, type ChartMinutes } from "./samples";

/** The options a status entry shows (sharing and those it carries): an answer may set or clear them. */
type ShownOption = "shared" | (typeof IN_STATUS)[number];
/** The settings a status entry shows: limit and cooldown are always there, an option given as undefined was cleared. */
type EntryChange = Partial<Pick<ConcurrencyStatusEntry, "limit" | "cooldownMs">> & {
  [K in ShownOption]?: ConcurrencyStatusEntry[K] | undefined;
};
const SHOWN_OPTIONS: ReadonlySet<string> = new Set<string>([...IN_STATUS, "shared"]);
const isShownOption = (key: string): key is ShownOption => SHOWN_OPTIONS.has(key);

/** What a configure answer changes in the entry: the fields the patch named that an entry shows. */
function entryChange(change: ProviderConfigPatch, view: ProviderConfigView): EntryChange {
  return Object.fromEntries(Object.keys(change).filter(isShownOption).map((key) => [key, view[key]]));
}

/** The entry with an answer's change in it. */
function changedEntry(entry: ConcurrencyStatusEntry, { limit, cooldownMs, ...options }: EntryChange): ConcurrencyStatusEntry {
  const next = { ...entry, ...(limit === undefined ? {} : { limit }), ...(cooldownMs === undefined ? {} : { cooldownMs }) };
  for (const key of Object.keys(options).filter(isShownOption)) setOption(next, key, options[key]);
  // A provider made local again has no hosts to count (the push says the same).
  if (!next.shared) delete next.hosts;
  return next;
}

function setOption<K extends ShownOption>(entry: ConcurrencyStatusEntry, key: K, value: ConcurrencyStatusEntry[K] | undefined): void {
  if (value === undefined) delete entry[key];
  else entry[key] = value;
}

export function createIntents(bridge: Bridge, store: HeadroomStore, now: () => number = Date.now) {
  /** What an answer changes in an entry. */
  function patch(providerId: string, change: EntryChange): void {
    store.setState((state) => {
      const entry = state.providers[providerId];
      return entry ? applyEntry(state, changedEntry(entry, change), now()) : {};
    });
  }

  async function onSuccess<T>(result: Promise<Result<T>>, onValue: (value: T) => void): Promise<Result<T>> {
    const settled = await result;
    if (settled.ok) onValue(settled.value);
    return settled;
  }

  return {
    setLimit: (providerId: string, limit: number) =>
      onSuccess(bridge.invoke("limit:set", { providerId, limit }), (view) => patch(providerId, { limit: view.limit })),
    addProvider: (providerId: string, limit: number) => bridge.invoke("limit:set", { providerId, limit }),
    removeProvider: (providerId: string) => bridge.invoke("provider:remove", { providerId }),
    setCooldown: (providerId: string, cooldownMs: number) =>
      onSuccess(bridge.invoke("cooldown:set", { providerId, cooldownMs }), (view) => patch(providerId, { cooldownMs: view.cooldownMs })),
    /** Any of a provider's options; SPEC §7: a host without Redis refuses `shared: true` with a message naming HEADROOM_REDIS_URL. */
    configure: (providerId: string, change: ProviderConfigPatch) =>
      onSuccess(bridge.invoke("provider:configure", { providerId, ...change }), (view) => patch(providerId, entryChange(change, view))),
    resume: (providerId: string) =>
      onSuccess(bridge.invoke("provider:resume", { providerId }), (entry) => store.setState((s) => applyEntry(s, entry, now()))),
    /** SPEC §1 Accept: `Keep N`, the lowered limit stays and the reduction is cleared. */
    acceptNotice: (providerId: string) =>
      onSuccess(bridge.invoke("notice:accept", { providerId }), (entry) => store.setState((s) => applyEntry(s, entry, now()))),
    providerConfig: (providerId: string) => bridge.invoke("provider:get", { providerId }),
    dismissNotice: (providerId: string) =>
      onSuccess(bridge.invoke("notice:dismiss", { providerId }), (entry) => store.setState((s) => applyEntry(s, entry, now()))),
    releaseLease: (leaseId: string) => bridge.invoke("lease:release", { leaseId }),
    // SPEC §10: presets and connecting agents.
    addPreset: async (preset: Preset) => {
      const added = await bridge.invoke("limit:set", { providerId: preset.id, limit: preset.limit });
      return added.ok ? bridge.invoke("provider:configure", { providerId: preset.id, upstream: preset.upstream }) : added;
    },
    connections: () => bridge.invoke("connections:get"),
    connectAgent: (agent: string, dryRun: boolean) => bridge.invoke("connection:connect", { agent, ...(dryRun ? { dryRun } : {}) }),
    disconnectAgent: (agent: string) => bridge.invoke("connection:disconnect", { agent }),
    resetRoute: (route: RouteKey) => bridge.invoke("route:reset", route),
    /** The chart's range; the host's history for it replaces what the window sampled itself. */
    showChart: async (minutes: ChartMinutes) => {
      store.setState({ chartMinutes: minutes });
      const result = await bridge.invoke("series:get", { minutes });
      if (result.ok && store.getState().chartMinutes === minutes) {
        store.setState((state) => ({ samples: mergeSeries(state.samples, result.value) }));
      }
      return result;
    },
    setRouteSettings: (settings: Partial<BreakerSettings>) =>
      onSuccess(bridge.invoke("routes:settings", settings), (saved) =>
        store.setState((state) => applyRoutes(state, { routes: state.routeKeys.map((k) => state.routes[k]!), settings: saved })),
      ),
  };
}

export type Intents = ReturnType<typeof createIntents>;
