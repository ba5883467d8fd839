// Where "tokens in the current window" begins for an agent's entry (SPEC §9): the provider's
// binding plan window (SPEC §8) once a reading named one with its reset, else the last 5 h.
// A window's start is its reset less its length (`lengthMs`); a window whose length is not known
// (a Codex `primary` without its minutes) falls back to the 5 h.
import type { PlanWindow } from "../../shared/types";
import { windowLengthMs } from "../../shared/window-length";

const HOUR_MS = 3_600_000;
const DEFAULT_TOKEN_WINDOW_MS = 5 * HOUR_MS;
/** The usage ledger keeps 8 days: a start before that counts what is kept. */
const KEPT_MS = 8 * 24 * HOUR_MS;

/** The provider's binding window and when it began, when a reading named one whose length is known. */
export function bindingSpan(windows: readonly PlanWindow[] | undefined, now: number): { window: PlanWindow; start: number } | undefined {
  const binding = windows?.find((window) => window.binding === true && window.resetsAt !== undefined && window.resetsAt > now);
  const length = binding && (binding.lengthMs ?? windowLengthMs(binding.name));
  if (binding?.resetsAt === undefined || length === undefined) return undefined;
  return { window: binding, start: Math.min(now, Math.max(now - KEPT_MS, binding.resetsAt - length)) };
}

/** When the current token window began, given the provider's windows as its status shows them. */
export function tokenWindowStart(windows: readonly PlanWindow[] | undefined, now: number): number {
  return bindingSpan(windows, now)?.start ?? now - DEFAULT_TOKEN_WINDOW_MS;
}
