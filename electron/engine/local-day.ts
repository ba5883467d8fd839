// The calendar day an instant falls on in a time zone, and when that day began and ends (SPEC §9
// daily budgets: the host's local midnight, or UTC's for a shared provider). Pure: the instant
// and the zone are parameters, the zone's rules come from the time-zone data Intl carries.
// Days are not 24 h: a daylight-saving change makes one 23 h and another 25 h, and where the
// change happens at midnight (Brazil until 2019, Chile, Paraguay) midnight itself does not
// exist on one day and the day starts at 01:00; a +5:30 zone's midnight is no hour's start.

export interface LocalDay {
  /** `YYYY-MM-DD` in the zone. */
  date: string;
  /** The day's first instant, epoch ms. */
  start: number;
  /** The next day's first instant, epoch ms. */
  end: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      ...(timeZone === undefined ? {} : { timeZone }),
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(key, format);
  }
  return format;
}

/** The wall clock at `at` as if it were UTC: its date parts and its offset from UTC. */
function wallAt(at: number, timeZone: string | undefined): { wall: number; offset: number } {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return { wall, offset: wall - Math.floor(at / 1000) * 1000 };
}

const dateOfWall = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/**
 * The first instant whose wall date is the one starting at `wallMidnight`. Tried at the two
 * offsets around it (the zone's offset at the first guess and at the second); the earliest that
 * lands on the date wins. When midnight was skipped both land after it, the earlier at the
 * change itself; when it is repeated the later reading is the real one.
 */
function firstInstant(wallMidnight: number, guessOffset: number, timeZone: string | undefined): number {
  const date = dateOfWall(wallMidnight);
  const first = wallMidnight - guessOffset;
  const second = wallMidnight - wallAt(first, timeZone).offset;
  const candidates = [first, second].filter((at) => dateOfWall(wallAt(at, timeZone).wall) === date);
  return candidates.length > 0 ? Math.min(...candidates) : Math.max(first, second);
}

const DAY_MS = 86_400_000;

/** The day `at` falls on in `timeZone` (the host's own when absent). */
export function localDay(at: number, timeZone?: string): LocalDay {
  const { wall, offset } = wallAt(at, timeZone);
  const wallMidnight = Math.floor(wall / DAY_MS) * DAY_MS;
  const start = firstInstant(wallMidnight, offset, timeZone);
  const end = firstInstant(wallMidnight + DAY_MS, offset, timeZone);
  return { date: dateOfWall(wallMidnight), start, end };
}
