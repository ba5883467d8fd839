// The pause of a used-up plan window and the probe at its reset (SPEC §8). Unlike the 429
// pause it lasts until the window's reset however far away (at most 8 days) and lowers no
// limit. When the reset passes one admission goes first; a refusal by a window pauses again
// (until the new reset, or 60 s), and its first answer that is not one, its release with any
// outcome but rate_limited, or 60 s after its admission lets the rest in.
import type { LeaseOutcome } from "../../shared/types";
import type { Clock, TimerHandle } from "./clock";
import * as say from "./window-messages";

export const MAX_WINDOW_PAUSE_MS = 8 * 24 * 3_600_000;
/** The pause when a refusal names no reset, and the longest a probe waits for its answer. */
export const PROBE_MS = 60_000;

type State =
  | { kind: "open" }
  | { kind: "paused"; until: number; label: string }
  | { kind: "probe_ready"; label: string }
  | { kind: "probing"; leaseId: string; label: string };

export interface WindowPauseHooks {
  /** The pause ended or the probe succeeded: drive the queue. */
  changed: () => void;
  exhausted: (message: string) => void;
  reset: (message: string) => void;
  /** A new pause began: waiters whose deadline falls before `until` time out now. */
  paused: (until: number) => void;
}

export class WindowPause {
  private state: State = { kind: "open" };
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly providerId: string,
    private readonly hooks: WindowPauseHooks,
  ) {}

  /** A window is used up: pause until its reset (or 60 s), extending a pause, never shortening it. */
  usedUp(label: string, resetsAt: number | undefined): void {
    const now = this.clock.now();
    const until = resetsAt !== undefined && resetsAt > now ? Math.min(resetsAt, now + MAX_WINDOW_PAUSE_MS) : now + PROBE_MS;
    if (this.state.kind === "paused" && until <= this.state.until) return;
    const fresh = this.state.kind === "open";
    this.setTimer(until - now, () => this.resetPassed());
    this.state = { kind: "paused", until, label };
    if (fresh) this.hooks.exhausted(say.exhaustedMessage(this.providerId, label, until, now));
    this.hooks.paused(until);
  }

  /** While paused: when it ends and why, in words. */
  pause(now: number): { until: number; reason: string; label: string } | undefined {
    if (this.state.kind !== "paused" || now >= this.state.until) return undefined;
    return { until: this.state.until, reason: say.usedUpReason(this.state.label, this.state.until, now), label: this.state.label };
  }

  /** Paused, or the probe is out: no other admission. A pause holds until its timer makes the reset a probe. */
  blocks(): boolean {
    return this.state.kind === "probing" || this.state.kind === "paused";
  }

  /** While the probe is out: why the others wait, in words. */
  probing(): string | undefined {
    return this.state.kind === "probing" ? say.probingReason(this.state.label) : undefined;
  }

  /** An admission went through; the first one after the reset is the probe. */
  admitted(leaseId: string): void {
    if (this.state.kind !== "probe_ready") return;
    this.state = { kind: "probing", leaseId, label: this.state.label };
    this.setTimer(PROBE_MS, () => this.probeSucceeded());
  }

  /** An upstream answer that is not a window refusal came back while probing. */
  answered(): void {
    if (this.state.kind === "probing") this.probeSucceeded();
  }

  /** The probe's admission never reached its agent: the next admission is the probe. */
  undelivered(leaseId: string): void {
    if (this.state.kind === "probing" && this.state.leaseId === leaseId) {
      this.clearTimer();
      this.state = { kind: "probe_ready", label: this.state.label };
    }
  }

  released(leaseId: string, outcome: LeaseOutcome): void {
    if (this.state.kind !== "probing" || this.state.leaseId !== leaseId) return;
    if (outcome === "rate_limited") this.usedUp(this.state.label, undefined);
    else this.probeSucceeded();
  }

  /** Resume by hand. */
  lift(): boolean {
    const was = this.state.kind !== "open";
    this.clearTimer();
    this.state = { kind: "open" };
    return was;
  }

  private resetPassed(): void {
    if (this.state.kind !== "paused") return;
    this.state = { kind: "probe_ready", label: this.state.label };
    this.hooks.changed();
  }

  private probeSucceeded(): void {
    if (this.state.kind !== "probing") return;
    const { label } = this.state;
    this.lift();
    this.hooks.reset(say.resetMessage(this.providerId, label));
    this.hooks.changed();
  }

  private setTimer(ms: number, fn: () => void): void {
    this.clearTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      fn();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.clearTimer();
  }
}
