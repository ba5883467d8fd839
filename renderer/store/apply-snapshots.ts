// Pure steps from a pushed snapshot to the next state. Each returns only what changed, with
// unchanged parts keeping their identity (see share.ts).
import type { AgentEntry, ConcurrencyStatusEntry, ConcurrencyStatusResponse, HistoryEvent, LeasesView, RoutesView } from "../../shared/types";
import type { HeadroomState } from "./headroom-store";
import { routeKeyOf } from "./route-key";
import { addSample } from "./samples";
import { sameEntry, sameLeases, sameRoute, shallowEqual, shareKeyed } from "./share";

export const NO_LEASES: LeasesView = { held: [], waiting: [] };

const NO_NOTICES: readonly string[] = [];

function without<T>(record: Readonly<Record<string, T>>, keys: readonly string[]): Record<string, T> {
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}

export interface StatusApplied {
  next: Partial<HeadroomState>;
  /** Providers whose entry changed: their leases may have too. */
  changed: ConcurrencyStatusEntry[];
}

export function applyStatus(state: HeadroomState, status: ConcurrencyStatusResponse, now: number): StatusApplied {
  const shared = shareKeyed(
    { keys: state.providerIds, byKey: state.providers, changed: [], removed: [] },
    status.providers,
    (entry) => entry.providerId,
    sameEntry,
  );
  const next: Partial<HeadroomState> = { loaded: true };
  if (shared.keys !== state.providerIds) next.providerIds = shared.keys;
  if (shared.byKey !== state.providers) next.providers = shared.byKey;

  const notices = status.notices ?? NO_NOTICES;
  const sameNotices = notices.length === state.notices.length && notices.every((n, i) => n === state.notices[i]);
  if (!sameNotices) next.notices = notices;
  const redis = status.redis;
  if (redis?.connected !== state.redis?.connected || redis?.error !== state.redis?.error) next.redis = redis;

  const changed = shared.changed.map((id) => shared.byKey[id] as ConcurrencyStatusEntry);
  if (changed.length > 0 || shared.removed.length > 0) {
    const samples = without(state.samples, shared.removed);
    for (const entry of changed) {
      const sample = { at: now, limit: entry.limit, active: entry.active, queued: entry.queued };
      samples[entry.providerId] = addSample(samples[entry.providerId], sample, state.chartMinutes);
    }
    next.samples = samples;
  }
  if (shared.removed.length > 0) next.leases = without(state.leases, shared.removed);
  return { next, changed };
}

export function applyEntry(state: HeadroomState, entry: ConcurrencyStatusEntry, now: number): Partial<HeadroomState> {
  if (!(entry.providerId in state.providers)) return {};
  const providers = state.providerIds.map((id) => (id === entry.providerId ? entry : (state.providers[id] as ConcurrencyStatusEntry)));
  const redis = state.redis === undefined ? {} : { redis: state.redis };
  return applyStatus(state, { providers, notices: [...state.notices], ...redis }, now).next;
}

export function applyRoutes(state: HeadroomState, view: RoutesView): Partial<HeadroomState> {
  const shared = shareKeyed(
    { keys: state.routeKeys, byKey: state.routes, changed: [], removed: [] },
    view.routes,
    routeKeyOf,
    sameRoute,
  );
  const next: Partial<HeadroomState> = {};
  if (shared.keys !== state.routeKeys) next.routeKeys = shared.keys;
  if (shared.byKey !== state.routes) next.routes = shared.byKey;
  const held = state.routeSettings;
  if (!held || !shallowEqual(held, view.settings)) {
    next.routeSettings = view.settings;
  }
  return next;
}

export function applyHistory(state: HeadroomState, events: readonly HistoryEvent[]): Partial<HeadroomState> {
  const [newest] = events;
  const [held] = state.events;
  const same = events.length === state.events.length && newest?.at === held?.at && newest?.message === held?.message;
  return same ? {} : { events };
}

/** The history keeps what GET /history keeps: the newest 500. */
const HISTORY_SIZE = 500;

/**
 * New events (newest first) go on top. An event already shown is skipped: in the Electron
 * window the first history comes from a getter that may already hold a pushed event.
 */
export function applyHistoryAdded(state: HeadroomState, added: readonly HistoryEvent[]): Partial<HeadroomState> {
  const shown = (event: HistoryEvent) => {
    for (const held of state.events) {
      if (held.at < event.at) return false;
      if (held.at === event.at && held.kind === event.kind && held.message === event.message) return true;
    }
    return false;
  };
  const fresh = added.filter((event) => !shown(event));
  if (fresh.length === 0) return {};
  return { events: [...fresh, ...state.events].slice(0, HISTORY_SIZE) };
}

export function applyLeases(state: HeadroomState, providerId: string, leases: LeasesView): Partial<HeadroomState> {
  if (!(providerId in state.providers)) return {};
  const held = state.leases[providerId];
  if (held && sameLeases(held, leases)) return {};
  return { leases: { ...state.leases, [providerId]: leases } };
}

/** One row per agent and provider: an agent that runs on two providers has two rows. */
export const agentRow = (agent: AgentEntry) => `${agent.key}\u0000${agent.providerId}`;

/**
 * SPEC §4 stable order: the host lists running and waiting agents first, but a row that
 * jumped whenever its agent changed state would move under the pointer. Rows keep the
 * place they were first shown in; new agents join at the end in the host's order.
 */
function inShownOrder(held: readonly AgentEntry[] | undefined, agents: readonly AgentEntry[]): readonly AgentEntry[] {
  if (!held || held.length === 0) return agents;
  const place = new Map(held.map((agent, index) => [agentRow(agent), index]));
  const known = agents.filter((agent) => place.has(agentRow(agent)));
  known.sort((a, b) => (place.get(agentRow(a)) ?? 0) - (place.get(agentRow(b)) ?? 0));
  return [...known, ...agents.filter((agent) => !place.has(agentRow(agent)))];
}

/** The same list when nothing an agent row shows changed (the host pushes up to twice a second). */
export function applyAgents(state: HeadroomState, pushed: readonly AgentEntry[]): Partial<HeadroomState> {
  const held = state.agents;
  const agents = inShownOrder(held, pushed);
  if (held && JSON.stringify(held) === JSON.stringify(agents)) return {};
  const selected = state.selectedAgent;
  const gone = selected !== undefined && !agents.some((agent) => agent.key === selected);
  return gone ? { agents, selectedAgent: undefined } : { agents };
}
