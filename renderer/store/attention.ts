// What needs the user, derived from the store: the top bar's counts, the document title, the
// `Needs you` list, and the order of cards (by id, never by state: nothing re-sorts under the
// pointer) and routes (open and half-open first).
import { attentionWords, usedUp } from "../../shared/attention-words";
import type { ConcurrencyStatusEntry, PlanWindow, RouteEntry } from "../../shared/types";
import type { HeadroomState } from "./headroom-store";

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** SPEC §4 stable order: by id; the filter only narrows. */
export function sortedProviderIds(state: HeadroomState, filter: string): string[] {
  const needle = filter.trim().toLowerCase();
  const ids = needle === "" ? [...state.providerIds] : state.providerIds.filter((id) => id.includes(needle));
  return ids.sort(byId);
}

const routeRank = (route: RouteEntry): number => (route.state === "open" ? 0 : route.state === "half-open" ? 1 : 2);

export function sortedRouteKeys(state: HeadroomState): string[] {
  return [...state.routeKeys].sort((a, b) => routeRank(state.routes[a]!) - routeRank(state.routes[b]!) || byId(a, b));
}

export interface Attention {
  paused: string[];
  queued: number;
  /** The first provider with queued agents, to bring into view. */
  queuedAt: string | undefined;
  openRoutes: string[];
  /** `anthropic paused`, `gemini has no working upstream`, … in id order. */
  words: string[];
  /** SPEC §7: the host has Redis configured and does not reach it, so shared providers admit nobody. */
  redisDown: boolean;
  disconnected: boolean;
}

export function attentionOf(state: HeadroomState): Attention {
  const paused: string[] = [];
  const words: string[] = [];
  let queued = 0;
  let queuedAt: string | undefined;
  for (const id of [...state.providerIds].sort(byId)) {
    const entry = state.providers[id]!;
    if (entry.paused) paused.push(id);
    const said = attentionWords(entry);
    if (said) words.push(said);
    if (entry.queued > 0) {
      queued += entry.queued;
      queuedAt ??= id;
    }
  }
  const openRoutes = sortedRouteKeys(state).filter((key) => state.routes[key]!.state !== "closed");
  const disconnected = state.connection === "reconnecting";
  return { paused, queued, queuedAt, openRoutes, words, redisDown: state.redis?.connected === false, disconnected };
}

/** `Headroom — anthropic paused`: what needs attention, so a tab or the tray says it. */
export function titleOf(attention: Attention): string {
  if (attention.disconnected) return "Headroom — disconnected";
  const parts = [...(attention.redisDown ? ["Redis unreachable"] : []), ...attention.words];
  const open = attention.openRoutes.length;
  if (open > 0) parts.push(`${open} route${open === 1 ? "" : "s"} open`);
  return parts.length === 0 ? "Headroom" : `Headroom — ${parts.join(", ")}`;
}

/** One thing the user can act on, named `<id>: <what>` (SPEC §4 `Needs you`). */
export type NeedItem =
  | { kind: "reduced"; key: string; name: string; providerId: string; from: number; limit: number; notice: string | undefined }
  | { kind: "paused"; key: string; name: string; providerId: string; until: number; reason: string | undefined; window?: PlanWindow }
  | { kind: "upstream"; key: string; name: string; providerId: string; count: number; lastError: string; lastAt: number }
  | { kind: "overage"; key: string; name: string; providerId: string; since: number }
  | { kind: "route"; key: string; name: string; route: RouteEntry }
  | { kind: "notice"; key: string; name: string; text: string };

function providerNeeds(entry: ConcurrencyStatusEntry): NeedItem[] {
  const { providerId: id } = entry;
  const items: NeedItem[] = [];
  const spent = entry.windows?.find(usedUp);
  if (entry.paused && entry.pausedUntil !== undefined) {
    const name = spent ? `${id}: ${attentionWords(entry)!.slice(id.length + 1)}` : `${id}: paused`;
    items.push({ kind: "paused", key: `paused:${id}`, name, providerId: id, until: entry.pausedUntil, reason: entry.pauseReason, ...(spent ? { window: spent } : {}) });
  }
  if (entry.autoReduced && entry.autoReducedFrom !== undefined) {
    items.push({
      kind: "reduced",
      key: `reduced:${id}`,
      name: `${id}: limit lowered from ${entry.autoReducedFrom} to ${entry.limit}`,
      providerId: id,
      from: entry.autoReducedFrom,
      limit: entry.limit,
      notice: entry.notice,
    });
  }
  // SPEC §8: the plan's window is used up and requests are paid from extra usage.
  if (entry.overage) items.push({ kind: "overage", key: `overage:${id}`, name: `${id}: paying for extra usage`, providerId: id, since: entry.overage.since });
  const failures = entry.upstreamFailures;
  if (failures) {
    const requests = `${failures.count} request${failures.count === 1 ? "" : "s"}`;
    items.push({ kind: "upstream", key: `upstream:${id}`, name: `${id}: ${requests} failed without a working upstream`, providerId: id, ...failures });
  }
  return items;
}

/** Everything the user can act on, in a fixed order; the list puts the newest first. */
export function needsOf(state: HeadroomState): NeedItem[] {
  const items = [...state.providerIds].sort(byId).flatMap((id) => providerNeeds(state.providers[id]!));
  for (const key of sortedRouteKeys(state)) {
    const route = state.routes[key]!;
    if (route.state === "closed") continue;
    const name = `${route.targetId}/${route.runtimeId}/${route.modelId}: route ${route.state === "open" ? "open" : "half-open, probe in progress"}`;
    items.push({ kind: "route", key: `route:${key}`, name, route });
  }
  for (const text of state.notices) items.push({ kind: "notice", key: `notice:${text}`, name: `Headroom: ${text}`, text });
  return items;
}
