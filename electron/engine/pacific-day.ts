// Gemini's per-day quotas reset at midnight Pacific time (ai.google.dev, "Rate limits"), whatever
// the host's own zone. Daylight saving moves that instant by an hour twice a year, so it comes
// from the time-zone data Intl carries, not from a fixed offset. Pure: `now` is a parameter.

const DAY_MS = 86_400_000;

let pacific: Intl.DateTimeFormat | undefined;
const formatter = () =>
  (pacific ??= new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Los_Angeles",
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }));

/** Pacific time's offset from UTC at `at`, in ms: −8 h (PST) or −7 h (PDT). */
function offsetAt(at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter().formatToParts(at)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

export interface PacificDay {
  /** The next midnight in Pacific time after `now` (strictly later), as epoch ms. */
  nextMidnight: number;
  /** How long ago, by Pacific wall clock, today's midnight was. */
  sinceMidnightMs: number;
}

export function pacificDay(now: number): PacificDay {
  const offset = offsetAt(now);
  const wallNow = now + offset;
  const sinceMidnightMs = ((wallNow % DAY_MS) + DAY_MS) % DAY_MS;
  const wallMidnight = wallNow - sinceMidnightMs + DAY_MS;
  // A change of daylight saving between now and then (always at 02:00, never at midnight)
  // means midnight has the other offset: read it at the first guess, which is within an hour.
  return { nextMidnight: wallMidnight - offsetAt(wallMidnight - offset), sinceMidnightMs };
}
