// What the main process last pushed, in the shape components read: entries by id, so a card
// selects its own entry and an unchanged entry keeps its identity across snapshots.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ConnectionState, HostInfo } from "../../shared/contract";
import type { AgentEntry, BreakerSettings, ConcurrencyStatusEntry, HistoryEvent, LeasesView, RedisState, RouteEntry } from "../../shared/types";
import type { ChartMinutes, Sample } from "./samples";

export interface HeadroomState {
  connection: ConnectionState;
  /** false until the first status snapshot, so the empty state does not flash while loading. */
  loaded: boolean;
  providerIds: readonly string[];
  providers: Readonly<Record<string, ConcurrencyStatusEntry>>;
  notices: readonly string[];
  /** Whether the host reaches Redis (SPEC §7); undefined when the host has no Redis configured. */
  redis: RedisState | undefined;
  routeKeys: readonly string[];
  routes: Readonly<Record<string, RouteEntry>>;
  routeSettings: BreakerSettings | undefined;
  events: readonly HistoryEvent[];
  hostInfo: HostInfo | undefined;
  leases: Readonly<Record<string, LeasesView>>;
  samples: Readonly<Record<string, readonly Sample[]>>;
  /** false when the browser window was opened without a token (a refusal then means a missing one). */
  tokenGiven: boolean;
  /** The chart's range: the last 5 minutes or the last hour. */
  chartMinutes: ChartMinutes;
  /** What the `Filter providers` searchbox narrows the cards to. */
  filter: string;
  /** SPEC §9's agents; undefined while the host has sent none (an older host: no list at all). */
  agents: readonly AgentEntry[] | undefined;
  /** The provider whose details are open, if any: one at a time. */
  details: string | undefined;
  /** The agent picked in the Agents list, whose leases are highlighted on the cards. */
  selectedAgent: string | undefined;
}

export type HeadroomStore = StoreApi<HeadroomState>;

export const initialState: HeadroomState = {
  connection: "connecting",
  loaded: false,
  providerIds: [],
  providers: {},
  notices: [],
  redis: undefined,
  routeKeys: [],
  routes: {},
  routeSettings: undefined,
  events: [],
  hostInfo: undefined,
  leases: {},
  samples: {},
  tokenGiven: true,
  chartMinutes: 5,
  filter: "",
  agents: undefined,
  details: undefined,
  selectedAgent: undefined,
};

export const createHeadroomStore = (): HeadroomStore => createStore<HeadroomState>(() => initialState);
