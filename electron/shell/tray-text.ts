// What the tray says at a glance: slots in use across every provider, and what is waiting.
import type { ConcurrencyStatusResponse } from "../../shared/types";

export interface TrayText {
  /** Beside the icon in the macOS menu bar. */
  title: string;
  tooltip: string;
}

export function trayText(status: ConcurrencyStatusResponse): TrayText {
  const { providers } = status;
  if (providers.length === 0) return { title: "", tooltip: "Headroom: no providers yet" };
  let active = 0;
  let limit = 0;
  let queued = 0;
  let paused = 0;
  for (const entry of providers) {
    active += entry.active;
    limit += entry.limit;
    queued += entry.queued;
    if (entry.paused) paused += 1;
  }
  const parts = [`${active}/${limit} active`];
  if (queued > 0) parts.push(`${queued} queued`);
  if (paused > 0) parts.push(`${paused} paused`);
  return { title: `${active}/${limit}`, tooltip: `Headroom: ${parts.join(", ")}` };
}
