// The one line `headroom statusline` prints (SPEC §10): the provider's slots, its queue and its
// plan windows — `anthropic 2/3 · 1 queued · 5h 43% ↻15:00 · 7d 12%` — or why it is paused.
// Short on purpose: it shares Claude Code's bottom line with whatever else the user shows there.
import type { ConcurrencyStatusEntry, PlanWindow } from "../../shared/types";

/** A reset this close is shown as a time of day; a weekly window's far-off one would only be noise. */
const SHOW_RESET_WITHIN_MS = 24 * 3_600_000;

const pad = (n: number) => String(n).padStart(2, "0");
const clock = (at: number) => {
  const date = new Date(at);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

function windowText(window: PlanWindow, now: number): string | undefined {
  if (window.usedPercent === undefined) return undefined;
  // A passed reset means the window is empty again until a new reading says otherwise.
  const passed = window.resetsAt !== undefined && window.resetsAt <= now;
  const used = passed ? 0 : Math.round(window.usedPercent);
  const reset = !passed && window.resetsAt !== undefined && window.resetsAt - now <= SHOW_RESET_WITHIN_MS ? ` ↻${clock(window.resetsAt)}` : "";
  return `${window.name} ${used}%${reset}`;
}

export function statusLineText(entry: ConcurrencyStatusEntry, now: number): string {
  if (entry.paused) return `${entry.providerId} paused: ${entry.pauseReason ?? "resumes on its own"}`;
  const parts = [`${entry.providerId} ${entry.active}/${entry.limit}`];
  if (entry.queued > 0) parts.push(`${entry.queued} queued`);
  for (const window of entry.windows ?? []) {
    const text = windowText(window, now);
    if (text !== undefined) parts.push(text);
  }
  return parts.join(" · ");
}
