// SPEC §4 "Pace": how much of a plan window's time has gone beside how much of it is used —
// the question a person asks of a window is whether it will last. Pure: `now` is passed in.
import type { PlanWindow } from "./types";

const HOUR = 3_600_000;
/**
 * Lengths of the windows whose names say them, for readings that carry no `lengthMs` (§8 adds
 * it; older hosts and some providers send none). Other names have no pace: guessing would lie.
 */
const KNOWN_LENGTHS: Record<string, number> = { "5h": 5 * HOUR, "7d": 7 * 24 * HOUR, day: 24 * HOUR };

/** At or above this many points of use ahead of the time gone, the window will not last. */
const AHEAD_POINTS = 15;

/** Two words only (SPEC §4): a window used slower than its time is simply on pace. */
type PaceVerdict = "ahead" | "on";

export interface Pace {
  /** 0..100, of the window's time gone. */
  elapsedPercent: number;
  /** 0..100, of the window used. */
  usedPercent: number;
  verdict: PaceVerdict;
}

/** The window's length: its own `lengthMs` when known, else one its name says (`5h`, `7d`, `day`). */
export function windowLengthMs(window: Pick<PlanWindow, "name"> & { lengthMs?: number | undefined }): number | undefined {
  if (window.lengthMs !== undefined && window.lengthMs > 0) return window.lengthMs;
  return KNOWN_LENGTHS[window.name];
}

/** Undefined when the length, the reset or the use is unknown: no pace mark then (SPEC §4). */
export function windowPace(
  window: Pick<PlanWindow, "name" | "usedPercent" | "resetsAt"> & { lengthMs?: number | undefined },
  now: number,
): Pace | undefined {
  const lengthMs = windowLengthMs(window);
  if (lengthMs === undefined || window.resetsAt === undefined || window.usedPercent === undefined) return undefined;
  const elapsed = 1 - (window.resetsAt - now) / lengthMs;
  const elapsedPercent = clamp(elapsed * 100);
  const usedPercent = clamp(window.usedPercent);
  return { elapsedPercent, usedPercent, verdict: usedPercent - elapsedPercent >= AHEAD_POINTS ? "ahead" : "on" };
}

/** `62 % used, 40 % of the time gone: ahead of pace` (SPEC §4's words) — for hover and screen readers. */
export function paceWords(pace: Pace): string {
  const verdict = pace.verdict === "ahead" ? "ahead of pace" : "on pace";
  return `${Math.round(pace.usedPercent)} % used, ${Math.round(pace.elapsedPercent)} % of the time gone: ${verdict}`;
}

const clamp = (percent: number) => Math.min(100, Math.max(0, percent));
