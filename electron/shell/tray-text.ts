// What the tray says at a glance: slots in use across every provider, and what is waiting.
import { attentionWords } from "../../shared/attention-words";
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
  const words: string[] = [];
  for (const entry of providers) {
    active += entry.active;
    limit += entry.limit;
    queued += entry.queued;
    const said = attentionWords(entry);
    if (said) words.push(said);
  }
  const parts = [`${active}/${limit} active`];
  if (queued > 0) parts.push(`${queued} queued`);
  // Named in the window title's words: which provider needs you and why, not how many.
  parts.push(...words);
  // SPEC §7: while Redis is away shared providers admit nobody, whatever the counts say.
  if (status.redis?.connected === false) parts.push("Redis unreachable");
  return { title: `${active}/${limit}`, tooltip: `Headroom: ${parts.join(", ")}` };
}
