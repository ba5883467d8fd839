// The sentences plan windows show people (SPEC §8): pause reasons, wait reasons, history.
// Times are the host's local clock time, as the user reads them next to their own clock.

const LABELS: Record<string, string> = { "5h": "5-hour", "7d": "weekly", primary: "primary", secondary: "secondary", day: "per-day" };
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** `5h` → `5-hour window`; a Codex window with a known length reads as its length. */
export function windowLabel(name: string, minutes?: number): string {
  if (minutes !== undefined && (name === "primary" || name === "secondary")) {
    if (minutes === 10_080) return "weekly window";
    if (minutes % 1_440 === 0) return `${minutes / 1_440}-day window`;
    if (minutes % 60 === 0) return `${minutes / 60}-hour window`;
    return `${minutes}-minute window`;
  }
  return `${LABELS[name] ?? name} window`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `15:00` within the next day, `Wed 15:00` further out. */
function localTime(at: number, now: number): string {
  const date = new Date(at);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return at - now < 20 * 3_600_000 ? time : `${WEEKDAYS[date.getDay()]} ${time}`;
}

export const usedUpReason = (label: string, resetsAt: number, now: number): string =>
  `${label} used up; resets ${localTime(resetsAt, now)}`;

export const exhaustedMessage = (providerId: string, label: string, resetsAt: number, now: number): string =>
  `${providerId}'s ${label} is used up; agents wait until it resets at ${localTime(resetsAt, now)}.`;

export const resetMessage = (providerId: string, label: string): string =>
  `${providerId}'s ${label} reset; agents are admitted again`;

export const warningMessage = (providerId: string, label: string, percent: number, resetsAt?: number, now = 0): string =>
  `${providerId}'s ${label} is at ${Math.floor(percent)} %` +
  (resetsAt === undefined ? "." : `; it resets at ${localTime(resetsAt, now)}.`);

export const probingReason = (label: string): string =>
  `one request goes first: the ${label} just reset`;

export const holdReason = (label: string, percent: number): string =>
  `holding new agents: ${label} at ${Math.floor(percent)} %`;

/**
 * The body of the 429 the proxy answers for the provider while a window is used up (SPEC §8
 * "Honest refusals"): they are refused, not held, and a headless agent learns how to wait.
 */
export const proxyRefusal = (providerId: string, label: string, resetsAt: number, now: number): string =>
  `${providerId}'s ${label} is used up; it resets at ${localTime(resetsAt, now)}. ` +
  "New requests are refused until then; a headless agent can wait for it with headroom run --resume.";

/** Why a `headroom run --resume` waits (SPEC §8): shown on its waiter and in the status. */
export const resumeReason = (label: string, resetsAt: number, now: number): string =>
  `resumes after the ${label} resets at ${localTime(resetsAt, now)}`;

/** SPEC §8 `overage_started`: the plan's window is used up and requests are paid from extra usage. */
export const overageMessage = (providerId: string, label: string, resetsAt: number | undefined, now: number): string =>
  `${providerId} is now paying for extra usage: the ${label} is used up` + (resetsAt === undefined ? "" : ` (resets ${localTime(resetsAt, now)})`);

/** The refusal with `overage: "stop"`: the plan's limit is where Headroom stops. */
export const extraUsageOff = (providerId: string): string => ` Extra usage is off in Headroom for ${providerId}.`;
