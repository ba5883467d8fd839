// What plan windows do to one provider's pool (SPEC §8), in one place the pool consults: the
// readings and their warnings (plan-windows.ts), the pause until a used-up window resets and
// its probe (window-pause.ts), and the hold of new leases near the end of a window, which lets
// agents already at work through. It also answers for both pauses together, the 429 pause
// (given) and the window's, since admission and the status see them as one.
import { OverageWatch } from "./overage-watch";
import type { HistoryKind, LeaseOutcome, PauseKind, PlanWindow } from "../../shared/types";
import type { Clock } from "./clock";
import type { PauseWindow } from "./pause-window";
import { PlanWindows } from "./plan-windows";
import * as say from "./window-messages";
import { WindowPause } from "./window-pause";
import type { WindowReading, WindowSighting } from "./window-readings";

/** An agent admitted this recently is at work: its proxy requests are not held (SPEC §8). */
const RECENT_AGENT_MS = 10 * 60_000;
const MAX_RECENT_AGENTS = 1_000;

export interface WindowRulesHooks {
  /** Something changed that may admit waiters: drive the queue and tell listeners. */
  drive(): void;
  event(kind: HistoryKind, message: string): void;
  timeOutBefore(until: number): void;
  /** A used-up window paused the provider until `until` (SPEC §8 `waitForResetMs` tests its waiters again). */
  windowPaused?(until: number): void;
  /** Overrides the pool's own record of recent agents (agent identity, SPEC §9, may know better). */
  recentAgent?: (agentId: string) => boolean;
}

/** What the service and the proxy ask of a pool's windows (SPEC §8). */
export interface PoolWindows {
  /** Plan windows read from an answer or an in-band event; a used-up one pauses until its reset. */
  note(reading: WindowReading): void;
  /** Windows a client posted (SPEC §10), already found newer than what is kept: shown, never a pause or a probe's answer. */
  report(sightings: WindowSighting[]): void;
  /** While a used-up window pauses the provider: what the proxy answers at once instead of forwarding. */
  refusal(now: number): { retryAfterS: number; message: string } | undefined;
  /** SPEC §8 `holdNewAtPercent`: undefined = no hold. */
  setHoldNewAtPercent(percent: number | undefined): void;
  /** SPEC §8 `overage`: "stop" makes paid extra usage a used-up window; undefined = "allow". */
  setOverage(mode: "allow" | "stop" | undefined): void;
  /** The status's `windows`, absent when none was ever seen. */
  views(): PlanWindow[] | undefined;
}

export class WindowRules implements PoolWindows {
  private readonly windows: PlanWindows;
  private readonly pause: WindowPause;
  /** Integer 1..100, or undefined = no hold. */
  private holdNewAtPercent: number | undefined;
  private readonly recent = new Map<string, number>();
  private readonly overage: OverageWatch;
  /** The pause is the plan's limit with extra usage off (`stop`): its refusal says so. */
  private extraOff = false;

  constructor(
    private readonly clock: Clock,
    private readonly providerId: string,
    /** The 429 pause, for the combined view; undefined where Redis keeps it (SPEC §7). */
    private readonly ratePause: PauseWindow | undefined,
    private readonly hooks: WindowRulesHooks,
  ) {
    this.windows = new PlanWindows(clock, providerId, () => hooks.drive());
    this.overage = new OverageWatch(clock, providerId, (kind, message) => hooks.event(kind, message));
    this.pause = new WindowPause(clock, providerId, {
      changed: () => hooks.drive(),
      exhausted: (message) => hooks.event("window_exhausted", message),
      reset: (message) => hooks.event("window_reset", message),
      paused: (until) => {
        hooks.timeOutBefore(until);
        hooks.windowPaused?.(until);
      },
    });
  }

  note(reading: WindowReading): void {
    this.take(reading.windows);
    const stopped = this.overage.stoppedBy(reading);
    const usedUp = stopped ?? reading.usedUp;
    if (usedUp) {
      this.extraOff = stopped !== undefined;
      this.pause.usedUp(this.windows.label(usedUp.name), usedUp.resetsAt);
    } else this.pause.answered();
    this.overage.noted(reading, (name) => this.windows.label(name));
    this.hooks.drive();
  }

  setOverage(mode: "allow" | "stop" | undefined): void {
    this.overage.setMode(mode);
    this.hooks.drive(); // the status changed
  }

  /** The status's `overage` while answers say requests are paid from extra usage. */
  overageFields(): { overage?: { since: number } } {
    return this.overage.fields();
  }

  report(sightings: WindowSighting[]): void {
    this.take(sightings);
    this.hooks.drive();
  }

  private take(sightings: WindowSighting[]): void {
    for (const warning of this.windows.note({ windows: sightings })) this.hooks.event("window_warning", warning.message);
  }

  setHoldNewAtPercent(percent: number | undefined): void {
    this.holdNewAtPercent = percent;
    this.hooks.drive();
  }

  /** No admission at all: a window pause, or its probe is out. */
  blocks(): boolean {
    return this.pause.blocks();
  }

  /** No admission now: a 429 pause, a window pause or its probe. */
  closed(now: number): boolean {
    return this.ratePause?.active(now) === true || this.pause.blocks();
  }

  /** Nothing holds the queue back (for the watchdog); the instant a 429 pause ends still holds. */
  idle(now: number): boolean {
    return this.ratePause?.holding(now) !== true && !this.pause.blocks() && this.holdReason(now) === undefined;
  }

  /** While a used-up window pauses the provider: its reset. */
  windowPausedUntil(now: number): number | undefined {
    return this.pause.pause(now)?.until;
  }

  /** The later of the 429 pause and a used-up window's. */
  pausedUntil(now: number): number | undefined {
    const rate = this.ratePause?.until(now);
    const window = this.pause.pause(now)?.until;
    return rate === undefined ? window : window === undefined ? rate : Math.max(rate, window);
  }

  /** The status's pause fields: the reason of whichever pause ends later; `pauseKind` while a used-up window pauses at all. */
  pauseFields(now: number): { pausedUntil?: number; pauseReason?: string; pauseKind?: PauseKind } {
    const pausedUntil = this.pausedUntil(now);
    if (pausedUntil === undefined) return {};
    const window = this.pause.pause(now);
    const pauseReason = window && window.until === pausedUntil ? window.reason : (this.ratePause?.reason ?? "");
    return { pausedUntil, pauseReason, ...(window ? { pauseKind: "window" as const } : {}) };
  }

  /** While a used-up window pauses the provider: what the proxy answers at once instead of forwarding. */
  refusal(now: number): { retryAfterS: number; message: string } | undefined {
    const paused = this.pause.pause(now);
    if (!paused) return undefined;
    const retryAfterS = Math.max(1, Math.ceil((paused.until - now) / 1000));
    const message = say.proxyRefusal(this.providerId, paused.label, paused.until, now);
    return { retryAfterS, message: this.extraOff ? message + say.extraUsageOff(this.providerId) : message };
  }

  /** Why a resuming waiter waits, while a used-up window pauses the provider. */
  resumeReason(now: number): string | undefined {
    const paused = this.pause.pause(now);
    return paused && say.resumeReason(paused.label, paused.until, now);
  }

  /** The status's `waitReason` while waiters are held, wait for the probe at a window's reset, or resume after it. */
  waitFields(queued: boolean, heldWaiters: boolean, now: number, resuming = false): { waitReason?: string } {
    const probing = queued ? this.pause.probing() : undefined;
    const reason = probing ?? (resuming ? this.resumeReason(now) : undefined) ?? (heldWaiters ? this.holdReason(now) : undefined);
    return reason === undefined ? {} : { waitReason: reason };
  }

  /** The hold is on and holds now. */
  holding(now: number): boolean {
    return this.holdNewAtPercent !== undefined && this.holdReason(now) !== undefined;
  }

  /** Why new leases wait now, or undefined when nothing holds them. */
  holdReason(now: number): string | undefined {
    return this.windows.holdReason(this.holdNewAtPercent, now);
  }

  /** A proxy request of an agent at work is not held; everything else new is. */
  holdable(proxied: boolean, agentId: string | undefined): boolean {
    if (!proxied || agentId === undefined) return true;
    if (this.hooks.recentAgent) return !this.hooks.recentAgent(agentId);
    const at = this.recent.get(agentId);
    return at === undefined || this.clock.now() - at > RECENT_AGENT_MS;
  }

  admitted(leaseId: string, agentId: string | undefined, now: number): void {
    this.pause.admitted(leaseId);
    if (agentId === undefined || this.hooks.recentAgent) return;
    this.recent.delete(agentId);
    this.recent.set(agentId, now);
    // Oldest first in insertion order: the bound drops the agent seen longest ago.
    if (this.recent.size > MAX_RECENT_AGENTS) this.recent.delete(this.recent.keys().next().value as string);
  }

  released(leaseId: string, outcome: LeaseOutcome): void {
    this.pause.released(leaseId, outcome);
  }

  undelivered(leaseId: string): void {
    this.pause.undelivered(leaseId);
  }

  /** Resume by hand; true when a window pause or probe was lifted. */
  lift(): boolean {
    return this.pause.lift();
  }

  views(): PlanWindow[] | undefined {
    return this.windows.views();
  }

  dispose(): void {
    this.pause.dispose();
    this.windows.dispose();
  }
}
