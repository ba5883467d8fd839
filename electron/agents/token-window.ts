// Where "tokens in the current window" begins for an agent's entry (SPEC §9): the provider's
// binding plan window (SPEC §8) once a reading named one with its reset, else the last 5 h.
// A window's start is its reset less its length; a name whose length is not known here (a
// Codex `primary` without its minutes) falls back to the 5 h.
import type { PlanWindow } from "../../shared/types";

const HOUR_MS = 3_600_000;
const DEFAULT_TOKEN_WINDOW_MS = 5 * HOUR_MS;
/** The usage ledger keeps 8 days: a start before that counts what is kept. */
const KEPT_MS = 8 * 24 * HOUR_MS;

function lengthOf(window: PlanWindow): number | undefined {
  // SPEC §8 `lengthMs`, once readings carry it; until then the names whose length is known.
  const { name, lengthMs } = window as PlanWindow & { lengthMs?: number };
  if (lengthMs !== undefined) return lengthMs;
  if (name === "5h") return 5 * HOUR_MS;
  if (name === "7d" || name.startsWith("7d_")) return 7 * 24 * HOUR_MS;
  if (name === "day") return 24 * HOUR_MS;
  return undefined;
}

/** The provider's binding window and when it began, when a reading named one whose length is known. */
export function bindingSpan(windows: readonly PlanWindow[] | undefined, now: number): { window: PlanWindow; start: number } | undefined {
  const binding = windows?.find((window) => window.binding === true && window.resetsAt !== undefined && window.resetsAt > now);
  const length = binding && lengthOf(binding);
  if (binding?.resetsAt === undefined || length === undefined) return undefined;
  return { window: binding, start: Math.min(now, Math.max(now - KEPT_MS, binding.resetsAt - length)) };
}

/** When the current token window began, given the provider's windows as its status shows them. */
export function tokenWindowStart(windows: readonly PlanWindow[] | undefined, now: number): number {
  return bindingSpan(windows, now)?.start ?? now - DEFAULT_TOKEN_WINDOW_MS;
}
