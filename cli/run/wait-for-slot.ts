// Waits for a lease with a long-poll acquire while a side loop asks where we stand (position
// from the provider's leases, pause countdown from its status) and shows it on stderr.
import type { ApiClient } from "../../shared/api-client";
import type { Admission, ConcurrencyStatusEntry, WaitingView } from "../../shared/types";
import type { AcquireRequest } from "../../shared/validate";
import { formatDuration, formatRemaining } from "../../shared/duration";
import type { ProgressLine } from "./progress-line";

// The first look comes after a short grace so an instant admission prints nothing.
const FIRST_LOOK_MS = 250;
const LOOK_EVERY_MS = 1000;

function describeWait(providerId: string, me: WaitingView, queued: number, entry: ConcurrencyStatusEntry | undefined, now: number) {
  const parts = [`headroom: waiting for a slot on ${providerId}: position ${me.position} of ${Math.max(queued, me.position)}`];
  if (entry) parts.push(`(${entry.active}/${entry.limit} active${entry.recycling > 0 ? `, ${entry.recycling} recycling` : ""})`);
  let text = parts.join(" ");
  // A resuming run (SPEC §8) says what it waits for: the window's reset.
  if (me.waitReason !== undefined) text += `, ${me.waitReason}`;
  else if (entry?.paused) {
    text += entry.pausedUntil === undefined
      ? ", paused after a rate limit"
      : `, paused after a rate limit: resumes in ${formatRemaining(entry.pausedUntil - now)}`;
  }
  return { text, key: `${me.position}|${entry?.paused === true}|${me.waitReason ?? ""}` };
}

/** The admission, or undefined when `signal` aborted the wait (the waiter has left the queue). */
export async function waitForSlot(
  client: ApiClient,
  request: AcquireRequest & { waiterId: string },
  signal: AbortSignal,
  progress: ProgressLine,
): Promise<Admission | undefined> {
  const startedAt = Date.now();
  let waiting = true;
  let timer: NodeJS.Timeout | undefined;

  const look = async () => {
    try {
      const [leases, status] = await Promise.all([client.leases(request.providerId), client.status()]);
      const me = leases.waiting.find((w) => w.waiterId === request.waiterId);
      const entry = status.providers.find((p) => p.providerId === request.providerId);
      if (waiting && me) {
        const { text, key } = describeWait(request.providerId, me, leases.waiting.length, entry, Date.now());
        progress.show(text, key);
      }
    } catch {
      // Only a view of the wait: the acquire itself reports a host that went away.
    }
    if (waiting) timer = setTimeout(look, LOOK_EVERY_MS);
  };
  timer = setTimeout(look, FIRST_LOOK_MS);

  try {
    const admission = await client.acquire(request, signal);
    progress.finish(`headroom: got a slot on ${request.providerId} after ${formatDuration(Date.now() - startedAt)}`);
    return admission;
  } catch (error) {
    progress.finish();
    if (signal.aborted) return undefined;
    throw error;
  } finally {
    waiting = false;
    clearTimeout(timer);
  }
}
