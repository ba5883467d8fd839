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
  const paused: string[] = [];
  for (const entry of providers) {
    active += entry.active;
    limit += entry.limit;
    queued += entry.queued;
    if (entry.paused) paused.push(entry.providerId);
  }
  const parts = [`${active}/${limit} active`];
  if (queued > 0) parts.push(`${queued} queued`);
  // Named, as the window's title names them: which provider needs you, not how many.
  if (paused.length > 0) parts.push(`${paused.join(", ")} paused`);
  // SPEC §7: while Redis is away shared providers admit nobody, whatever the counts say.
  if (status.redis?.connected === false) parts.push("Redis unreachable");
  return { title: `${active}/${limit}`, tooltip: `Headroom: ${parts.join(", ")}` };
}
