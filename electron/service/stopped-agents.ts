// Who stopped on a used-up window (SPEC §8 "Who stopped"): the agents whose requests a window
// refused since it was used up, newest first, at most 20 per provider, and which of them go on
// by themselves (a `headroom run --resume` of theirs came back as a resuming waiter). The
// status shows them while the window pauses the provider; the `window_reset` line names them
// and then they are forgotten.
import type { HistoryEvent } from "../../shared/types";

const MAX_STOPPED = 20;

interface Stopped {
  label: string;
  /** The agent name of the lease its request rode (`headroom run --agent`), if it rode one. */
  leaseAgent: string | undefined;
  resumes: boolean;
}

type Told = Omit<HistoryEvent, "at">;

export class StoppedAgents {
  private readonly byProvider = new Map<string, Stopped[]>();

  /** A request of `label`'s was refused by the provider's window. */
  note(providerId: string, label: string, leaseAgent?: string): void {
    const list = (this.byProvider.get(providerId) ?? []).filter((s) => s.label !== label);
    list.unshift({ label, leaseAgent, resumes: false });
    this.byProvider.set(providerId, list.slice(0, MAX_STOPPED));
  }

  /** A `headroom run --resume` named `agentId` waits to resume: the newest of its stops goes on by itself. */
  resuming(providerId: string, agentId: string | undefined): void {
    const stop = this.byProvider.get(providerId)?.find((s) => s.leaseAgent === agentId && !s.resumes);
    if (stop) stop.resumes = true;
  }

  labels(providerId: string): string[] | undefined {
    const list = this.byProvider.get(providerId);
    return list && list.length > 0 ? list.map((s) => s.label) : undefined;
  }

  /** A history event passing by: a fresh used-up window starts the list; its reset names them and ends it. */
  told(event: Told): Told {
    const { providerId } = event;
    if (providerId === undefined) return event;
    if (event.kind === "window_exhausted") this.byProvider.delete(providerId);
    if (event.kind !== "window_reset") return event;
    const list = this.byProvider.get(providerId);
    this.byProvider.delete(providerId);
    if (!list || list.length === 0) return event;
    const resuming = list.filter((s) => s.resumes).length;
    const byThemselves = resuming === 0 ? "" : ` (${resuming} ${resuming === 1 ? "runs" : "run"} with --resume and ${resuming === 1 ? "goes" : "go"} on by ${resuming === 1 ? "itself" : "themselves"})`;
    return { ...event, message: `${event.message}. Stopped on it: ${list.map((s) => s.label).join(", ")}${byThemselves}` };
  }

  forget(providerId: string): void {
    this.byProvider.delete(providerId);
  }
}
