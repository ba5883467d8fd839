// Plan windows a client read for itself and posted (SPEC §10: Claude Code's status line sees
// the rate limits of its own answers, which may not have passed the proxy). They show on the
// meters and feed the hold and the window share, but they are second-hand: they never pause a
// provider, and never replace a newer reading. Claude Code hands its status line the figures
// of its *last* answer, so a post can be older than what the proxy saw a moment ago. Within one
// period of a window usage only grows, so "newer" is a later reset, or the same reset and at
// least as much used. Pure: `now` is a parameter.
import type { PlanWindow } from "../../shared/types";
import type { ReportedWindow } from "../../shared/schemas";
import type { WindowSighting } from "./window-readings";

/** The windows that count for the whole account; any other name is model-scoped (SPEC §8). */
const ACCOUNT_WIDE = new Set(["5h", "7d", "primary", "secondary", "day"]);
/** Two resets this close are one period's (the providers round them differently). */
const SAME_PERIOD_MS = 60_000;
/** The proxy's bound (window-readings.ts): a reset further out is no window's. */
const MAX_RESET_AHEAD_MS = 31 * 24 * 3_600_000;

function period(kept: PlanWindow, posted: ReportedWindow, now: number): "older" | "same" | "newer" {
  if (kept.resetsAt !== undefined && kept.resetsAt <= now) return "newer"; // the kept one no longer counts
  if (posted.resetsAt === undefined || kept.resetsAt === undefined) return "same";
  if (posted.resetsAt < kept.resetsAt - SAME_PERIOD_MS) return "older";
  return posted.resetsAt > kept.resetsAt + SAME_PERIOD_MS ? "newer" : "same";
}

/** The posted windows that say something newer than what is kept, as sightings seen `now`. */
export function reportedSightings(posted: readonly ReportedWindow[], kept: PlanWindow[] | undefined, now: number): WindowSighting[] {
  const keptByName = new Map((kept ?? []).map((w) => [w.name, w]));
  const taken = new Map<string, WindowSighting>();
  for (const window of posted) {
    if (window.resetsAt !== undefined && window.resetsAt > now + MAX_RESET_AHEAD_MS) continue;
    const before = keptByName.get(window.name);
    const when = before ? period(before, window, now) : "newer";
    if (when === "older") continue;
    if (when === "same" && before?.usedPercent !== undefined && window.usedPercent < before.usedPercent) continue;
    // In the same period the kept window's status and binding still hold; a new period's
    // status is not known yet. Which window binds is the plan's, so it stays either way.
    const status = when === "same" && before?.status !== undefined ? { status: before.status } : {};
    const resetsAt = window.resetsAt ?? (when === "same" ? before?.resetsAt : undefined);
    taken.set(window.name, {
      name: window.name,
      usedPercent: Math.round(window.usedPercent * 100) / 100,
      ...(resetsAt === undefined ? {} : { resetsAt }),
      ...status,
      ...(before?.binding ? { binding: true as const } : {}),
      seenAt: now,
      scoped: !ACCOUNT_WIDE.has(window.name),
    });
  }
  return [...taken.values()];
}
