// How durations and moments read in the window: one formatter, as people say them
// (`350 ms`, `1.5 s`, `15 s`, `2 min 30 s`, `1 h 5 min`).

export function formatMs(ms: number): string {
  const value = Math.max(0, ms);
  if (value < 1_000) return `${Math.round(value)} ms`;
  if (value < 10_000 && value % 1_000 !== 0) return `${(value / 1_000).toFixed(1)} s`;
  const seconds = Math.round(value / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Time left, in whole seconds rounded up, so "0 s" never shows while still waiting. */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1_000);
  return seconds === 0 ? "0 s" : formatMs(seconds * 1_000);
}

// One formatter for every clock time: toLocaleTimeString builds a new one per call, which
// showed in the window's CPU profile with the activity list and lease rows re-rendering.
const CLOCK = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });

export function formatClock(epochMs: number): string {
  return CLOCK.format(epochMs);
}

const TIME_OF_DAY = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit" });
const DAY_AND_TIME = new Intl.DateTimeFormat([], { weekday: "short", hour: "2-digit", minute: "2-digit" });

/** A reset time in the user's locale: `15:00` today, `Tue 15:00` further away. */
export function formatTimeOfDay(epochMs: number, now: number = Date.now()): string {
  return epochMs - now < 20 * 3_600_000 ? TIME_OF_DAY.format(epochMs) : DAY_AND_TIME.format(epochMs);
}
