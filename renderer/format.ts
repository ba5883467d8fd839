// How moments read in the window (durations: formatDuration in shared/duration.ts).

// One formatter for every clock time: toLocaleTimeString builds a new one per call, which
// showed in the window's CPU profile with the activity list and lease rows re-rendering.
const CLOCK = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });

export function formatClock(epochMs: number): string {
  return CLOCK.format(epochMs);
}
