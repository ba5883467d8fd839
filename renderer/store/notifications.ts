// What deserves a notification in the browser window (SPEC §4 "Notifications"): a limit the
// host lowered by itself, a plan window used up, a window that reset, a route that opened.
// Found by comparing consecutive states, so nothing already true when the window opened
// raises one; each kind at most once a minute per provider. A reduction whose notice says the
// limit was lowered *again* right after a restore is not notified twice (SPEC §4).
import { usedUp, windowName } from "../../shared/attention-words";
import type { HeadroomState, HeadroomStore } from "./headroom-store";

export interface Note {
  title: string;
  body: string;
}

export const NOTE_EVERY_MS = 60_000;

function notesBetween(before: HeadroomState, after: HeadroomState): { key: string; note: Note }[] {
  const notes: { key: string; note: Note }[] = [];
  for (const id of after.providerIds) {
    const was = before.providers[id];
    const entry = after.providers[id]!;
    if (!was) continue;
    if (entry.autoReduced && entry.limit < was.limit && !/\bagain\b/.test(entry.notice ?? "")) {
      notes.push({ key: `reduced:${id}`, note: { title: `${id}: limit lowered to ${entry.limit}`, body: entry.notice ?? "" } });
    }
    const spent = entry.windows?.find(usedUp);
    const wasSpent = was.windows?.find(usedUp);
    if (spent && !wasSpent) {
      notes.push({ key: `window-used:${id}`, note: { title: `${id}: ${windowName(spent.name)} window used up`, body: entry.pauseReason ?? "New agents wait for the reset." } });
    }
    if (wasSpent && !spent) {
      notes.push({ key: `window-reset:${id}`, note: { title: `${id}: ${windowName(wasSpent.name)} window reset`, body: "Agents are admitted again." } });
    }
  }
  for (const key of after.routeKeys) {
    const route = after.routes[key]!;
    if (route.state !== "open" || (before.routes[key]?.state ?? "closed") !== "closed") continue;
    const name = `${route.targetId}/${route.runtimeId}/${route.modelId}`;
    notes.push({ key: `route:${route.targetId}`, note: { title: `Route opened: ${name}`, body: route.reason || "It kept failing." } });
  }
  return notes;
}

/** Calls `show` for each new note while `enabled()`; the first loaded state only sets the baseline. */
export function watchNotifications(store: HeadroomStore, show: (note: Note) => void, enabled: () => boolean, now: () => number = Date.now): () => void {
  const lastAt = new Map<string, number>();
  return store.subscribe((after, before) => {
    if (!before.loaded || !enabled()) return;
    for (const { key, note } of notesBetween(before, after)) {
      const at = now();
      if (at - (lastAt.get(key) ?? -Infinity) < NOTE_EVERY_MS) continue;
      lastAt.set(key, at);
      show(note);
    }
  });
}
