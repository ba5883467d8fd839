// What needs the user about one provider, in the few words a window title or a tray tooltip
// has room for. The window's title and the Electron tray say the same thing from this one place.
import type { ConcurrencyStatusEntry, PlanWindow } from "./types";

/** SPEC §8: a window whose reading says it is used up (model-scoped ones included: they refuse too). */
export const usedUp = (window: PlanWindow): boolean => window.status === "rejected" || (window.usedPercent ?? 0) >= 100;

/** `5h` reads as `5-hour`, `7d` as `7-day`; other names as the provider gives them. */
export function windowName(name: string): string {
  const match = /^(\d+)([hd])$/.exec(name);
  if (!match) return name;
  return `${match[1]}-${match[2] === "h" ? "hour" : "day"}`;
}

export function attentionWords(entry: ConcurrencyStatusEntry): string | undefined {
  const { providerId } = entry;
  const spent = entry.windows?.find(usedUp);
  if (spent) return `${providerId} ${windowName(spent.name)} window used up`;
  if (entry.paused) return `${providerId} paused`;
  if (entry.upstreamFailures) return `${providerId} has no working upstream`;
  if (entry.autoReduced) return `${providerId} auto-reduced`;
  return undefined;
}
