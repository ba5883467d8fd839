import type { ConcurrencyStatusEntry } from "../../shared/types";

/** A status entry as a fresh provider reports it, with the fields a test cares about changed. */
export function statusEntry(providerId: string, change: Partial<ConcurrencyStatusEntry> = {}): ConcurrencyStatusEntry {
  return {
    providerId,
    limit: 3,
    active: 0,
    queued: 0,
    paused: false,
    cooldownMs: 350,
    autoReduced: false,
    noticeDismissed: false,
    recycling: 0,
    ...change,
  };
}
