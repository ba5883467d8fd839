// Whether `headroom run --resume`'s child stopped on a window (SPEC §8): a request riding its
// lease was refused by a used-up window or a budget (`stoppedBy` on the held lease), or the
// provider is paused by one (`pauseKind`). Asked of the host before the slot is released,
// while the lease is still held; and the one line that tells the person what happens next.
import type { ApiClient } from "../../shared/api-client";
import type { Admission, ConcurrencyStatusEntry } from "../../shared/types";

export interface WindowStop {
  /** `headroom: anthropic's 5-hour window is used up; claude resumes after 15:00 (Ctrl-C stops)` */
  line: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const clock = (at: number) => {
  const date = new Date(at);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** Paused by a used-up window or a budget (the status's `pauseKind`), not by a 429's backoff. */
function pausedByWindow(entry: ConcurrencyStatusEntry | undefined): boolean {
  return entry?.paused === true && (entry.pauseKind === "window" || entry.pauseKind === "budget");
}

/** `5-hour window used up; resets 15:00` → `5-hour window`. */
const windowOf = (entry: ConcurrencyStatusEntry | undefined): string | undefined =>
  /^(.+?) used up/.exec(entry?.pauseReason ?? "")?.[1];

export async function windowStop(client: ApiClient, admission: Admission, agent: string): Promise<WindowStop | undefined> {
  const [leases, status] = await Promise.all([client.leases(admission.providerId), client.status()]);
  const entry = status.providers.find((p) => p.providerId === admission.providerId);
  const stoppedBy = leases.held.find((lease) => lease.leaseId === admission.leaseId)?.stoppedBy;
  if (stoppedBy === undefined && !pausedByWindow(entry)) return undefined;
  const what = windowOf(entry);
  const used = stoppedBy === "budget" && what === undefined ? "daily budget is used up" : `${what ?? "plan window"} is used up`;
  const after = entry?.paused && entry.pausedUntil !== undefined ? `after ${clock(entry.pausedUntil)}` : "after it resets";
  return { line: `headroom: ${admission.providerId}'s ${used}; ${agent} resumes ${after} (Ctrl-C stops)` };
}
