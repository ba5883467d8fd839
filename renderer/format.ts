// How moments read in the window (durations: formatDuration in shared/duration.ts).

// One formatter for every clock time: toLocaleTimeString builds a new one per call, which
// showed in the window's CPU profile with the activity list and lease rows re-rendering.
const CLOCK = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });

export function formatClock(epochMs: number): string {
  return CLOCK.format(epochMs);
}

const CLOCK_SHORT = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** `14:05`: where a row has no room for the seconds (a card's holders); the title keeps them. */
export function formatClockShort(epochMs: number): string {
  return CLOCK_SHORT.format(epochMs);
}

const TIME_OF_DAY = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit" });
const DAY_AND_TIME = new Intl.DateTimeFormat([], { weekday: "short", hour: "2-digit", minute: "2-digit" });

/** A reset time in the user's locale: `15:00` today, `Tue 15:00` further away. */
export function formatTimeOfDay(epochMs: number, now: number = Date.now()): string {
  return epochMs - now < 20 * 3_600_000 ? TIME_OF_DAY.format(epochMs) : DAY_AND_TIME.format(epochMs);
}
