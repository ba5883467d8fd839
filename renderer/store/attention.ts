// What needs the user, derived from the store: the top bar's counts, the document title, and
// the order of cards and routes (problems first, then by id).
import type { ConcurrencyStatusEntry, RouteEntry } from "../../shared/types";
import type { HeadroomState } from "./headroom-store";

/** Card order: paused, then auto-reduced, then with queued agents, then the rest; by id within each. */
function rank(entry: ConcurrencyStatusEntry): number {
  if (entry.paused) return 0;
  if (entry.autoReduced) return 1;
  return entry.queued > 0 ? 2 : 3;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function sortedProviderIds(state: HeadroomState, filter: string): string[] {
  const needle = filter.trim().toLowerCase();
  const ids = needle === "" ? [...state.providerIds] : state.providerIds.filter((id) => id.includes(needle));
  return ids.sort((a, b) => rank(state.providers[a]!) - rank(state.providers[b]!) || byId(a, b));
}

const routeRank = (route: RouteEntry): number => (route.state === "open" ? 0 : route.state === "half-open" ? 1 : 2);

export function sortedRouteKeys(state: HeadroomState): string[] {
  return [...state.routeKeys].sort((a, b) => routeRank(state.routes[a]!) - routeRank(state.routes[b]!) || byId(a, b));
}

export interface Attention {
  paused: string[];
  reduced: string[];
  queued: number;
  /** The first provider with queued agents, to bring into view. */
  queuedAt: string | undefined;
  openRoutes: string[];
  /** SPEC §7: the host has Redis configured and does not reach it, so shared providers admit nobody. */
  redisDown: boolean;
}

export function attentionOf(state: HeadroomState): Attention {
  const paused: string[] = [];
  const reduced: string[] = [];
  let queued = 0;
  let queuedAt: string | undefined;
  for (const id of [...state.providerIds].sort(byId)) {
    const entry = state.providers[id]!;
    if (entry.paused) paused.push(id);
    if (entry.autoReduced) reduced.push(id);
    if (entry.queued > 0) {
      queued += entry.queued;
      queuedAt ??= id;
    }
  }
  const openRoutes = sortedRouteKeys(state).filter((key) => state.routes[key]!.state !== "closed");
  return { paused, reduced, queued, queuedAt, openRoutes, redisDown: state.redis?.connected === false };
}

/** `Headroom — anthropic paused`: what needs attention, so a tab or the tray says it. */
export function titleOf(attention: Attention): string {
  const parts = [
    ...(attention.redisDown ? ["Redis unreachable"] : []),
    ...attention.paused.map((id) => `${id} paused`),
    ...attention.reduced.filter((id) => !attention.paused.includes(id)).map((id) => `${id} auto-reduced`),
  ];
  const open = attention.openRoutes.length;
  if (open > 0) parts.push(`${open} route${open === 1 ? "" : "s"} open`);
  return parts.length === 0 ? "Headroom" : `Headroom — ${parts.join(", ")}`;
}
