// The store's one subscription to the bridge, set up outside React: pushes land in the store,
// and a provider whose entry changed gets its holders and waiters fetched again (a status
// change is what tells us leases moved; an idle provider needs no request at all).
import type { Bridge } from "../../shared/contract";
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { applyAgents, applyHistory, applyHistoryAdded, applyLeases, applyRoutes, applyStatus, NO_LEASES } from "./apply-snapshots";
import { mergeSeries } from "./samples";
import type { HeadroomStore } from "./headroom-store";

export interface ConnectOptions {
  now?: () => number;
}

export function connectStore(store: HeadroomStore, bridge: Bridge, options: ConnectOptions = {}): () => void {
  const now = options.now ?? Date.now;
  const inFlight = new Set<string>();
  const stale = new Set<string>();

  async function refreshLeases(providerId: string): Promise<void> {
    if (inFlight.has(providerId)) {
      stale.add(providerId);
      return;
    }
    inFlight.add(providerId);
    const result = await bridge.invoke("leases:get", { providerId });
    inFlight.delete(providerId);
    if (result.ok) store.setState((state) => applyLeases(state, providerId, result.value));
    if (stale.delete(providerId)) void refreshLeases(providerId);
  }

  function leasesMoved(entry: ConcurrencyStatusEntry): void {
    if (entry.active === 0 && entry.queued === 0) {
      store.setState((state) => applyLeases(state, entry.providerId, NO_LEASES));
    } else {
      void refreshLeases(entry.providerId);
    }
  }

  const unsubscribers = [
    bridge.subscribe("status", (status) => {
      let changed: ConcurrencyStatusEntry[] = [];
      store.setState((state) => {
        const applied = applyStatus(state, status, now());
        changed = applied.changed;
        return applied.next;
      });
      changed.forEach(leasesMoved);
    }),
    bridge.subscribe("routes", (routes) => store.setState((state) => applyRoutes(state, routes))),
    bridge.subscribe("history", ({ events }) => store.setState((state) => applyHistory(state, events))),
    bridge.subscribe("history-added", ({ events }) => store.setState((state) => applyHistoryAdded(state, events))),
    bridge.subscribe("agents", ({ agents }) => store.setState((state) => applyAgents(state, agents))),
    bridge.onConnection((connection) => {
      store.setState({ connection });
      // The chart starts full: the host's history since before this window opened (or
      // since the connection dropped).
      if (connection === "live") {
        const minutes = store.getState().chartMinutes;
        void bridge.invoke("series:get", { minutes }).then((result) => {
          if (result.ok) store.setState((state) => ({ samples: mergeSeries(state.samples, result.value) }));
        });
      }
      if (connection === "live" && !store.getState().hostInfo) {
        void bridge.invoke("host:info").then((result) => {
          if (result.ok) store.setState({ hostInfo: result.value });
        });
      }
    }),
  ];
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
