// A shared provider's plan windows (SPEC §8 "Shared providers": one account, one window, on
// every host). The readings each host's proxy sees go to Redis, and every host takes the
// others' into its own view; a used-up window's pause and the probe at its reset are judged in
// Redis (lua/window-state.ts), so every host's waiters wait for it and every host's proxy
// refuses at once. The hold is this host's setting, judged on the shared readings (window-hold.ts).
import type { HistoryKind, PlanWindow } from "../../shared/types";
import type { Clock } from "../engine/clock";
import { PlanWindows } from "../engine/plan-windows";
import { OverageWatch } from "../engine/overage-watch";
import { MAX_WINDOW_PAUSE_MS, PROBE_MS } from "../engine/window-pause";
import type { PoolWindows } from "../engine/window-rules";
import * as say from "../engine/window-messages";
import { MAX_WINDOWS, type WindowReading, type WindowSighting } from "../engine/window-readings";
import type { AcquireOptions, AcquireResult } from "../engine/pool-types";
import { SharedNearResetWaits } from "./near-reset-waits";

/** Readings that say what was said before go to Redis again only this long after. */
const RESHARE_AFTER_MS = 60_000;
const NAME = /^[a-z0-9_]{1,32}$/;

/** What Redis says of the window's pause, on the host's clock. */
export interface RedisWindow {
  label: string;
  /** While paused: its end. */
  until?: number;
  probing: boolean;
}

export interface SharedWindowsDeps {
  clock: Clock;
  providerId: string;
  /**
   * To Redis: the readings, and a used-up window or the answer a probe waits for. `shown` runs
   * once a status read after Redis took them is in, so `redis()` tells what Redis decided.
   * `answered` false: a client's posted windows (SPEC §10), which are no answer to a probe.
   */
  send(usedUp: { label: string; resetsAt?: number } | undefined, sightings: WindowSighting[], shown: () => void, answered: boolean): void;
  /** Redis's window pause as last read; undefined when it has none. */
  redis(): RedisWindow | undefined;
  changed(): void;
  event(kind: HistoryKind, message: string): void;
}

export class SharedWindows implements PoolWindows {
  private readonly windows: PlanWindows;
  /** The pause this host just asked Redis for, refused here until a status read after Redis took it. */
  private pausedHere: { until: number; label: string; ticket: number } | undefined;
  private tickets = 0;
  private sharedAt = Number.NEGATIVE_INFINITY;
  /** What each window said when last sent: a meter that moves a point is sent again. */
  private readonly shared = new Map<string, string>();
  private readonly seen = new Map<string, number>();
  /** The names Redis held at the last read: with this host's own, what `seen` and `shared` remember. */
  private inRedis: string[] = [];
  private holdNewAtPercent: number | undefined;
  /** `overage` is this host's own setting, judged on the answers its proxy sees (SPEC §8). */
  private readonly overage: OverageWatch;
  /** Proxied requests waiting through a near reset, held to its bounds (SPEC §8). */
  private readonly nearReset: SharedNearResetWaits;

  constructor(private readonly deps: SharedWindowsDeps) {
    this.windows = new PlanWindows(deps.clock, deps.providerId, () => deps.changed());
    this.nearReset = new SharedNearResetWaits(deps.clock, () => deps.redis());
    this.overage = new OverageWatch(deps.clock, deps.providerId, (kind, message) => deps.event(kind, message));
  }

  note(reading: WindowReading): void {
    const now = this.deps.clock.now();
    this.take(reading.windows);
    // SPEC §8: with `overage: "stop"` (this host's own setting) paid extra usage is a used-up window.
    const usedUp = this.overage.stoppedBy(reading) ?? reading.usedUp;
    this.overage.noted(reading, (name) => this.windows.label(name));
    if (usedUp) {
      const label = this.windows.label(usedUp.name);
      const { resetsAt } = usedUp;
      const until = resetsAt !== undefined && resetsAt > now ? Math.min(resetsAt, now + MAX_WINDOW_PAUSE_MS) : now + PROBE_MS;
      const ticket = ++this.tickets;
      this.pausedHere = { until, label, ticket };
      this.share(now, { label, ...(resetsAt === undefined ? {} : { resetsAt }) }, reading.windows, () => {
        // From here Redis's word governs, whatever it says (a resume elsewhere lifts the pause).
        if (this.pausedHere?.ticket === ticket) this.pausedHere = undefined;
      });
    } else if (this.deps.redis()?.probing === true || this.news(reading.windows) || now - this.sharedAt >= RESHARE_AFTER_MS) {
      this.share(now, undefined, reading.windows, () => {});
    }
    this.trim();
    this.deps.changed();
  }

  /** Windows a client posted (SPEC §10), found newer than what is kept: shared, never a pause or a probe's answer. */
  report(sightings: WindowSighting[]): void {
    const now = this.deps.clock.now();
    this.take(sightings);
    if (this.news(sightings) || now - this.sharedAt >= RESHARE_AFTER_MS) this.share(now, undefined, sightings, () => {}, false);
    this.deps.changed();
  }

  /** An admission; a proxied one waiting through a near reset is answered with a timeout past its bounds. */
  admitting(options: AcquireOptions, admit: (options: AcquireOptions) => Promise<AcquireResult>): Promise<AcquireResult> {
    return this.nearReset.around(options, admit);
  }

  /** Readings other hosts left in Redis: the newest of each window joins this host's view (and the near waits are tested again). */
  fromRedis(sightings: WindowSighting[]): void {
    this.nearReset.read();
    this.inRedis = sightings.slice(0, MAX_WINDOWS).map((s) => s.name);
    const fresh = sightings.filter((s) => NAME.test(s.name) && Number.isFinite(s.seenAt) && s.seenAt > (this.seen.get(s.name) ?? -1));
    if (fresh.length > 0) {
      this.take(fresh.slice(0, MAX_WINDOWS));
      this.deps.changed();
    }
    this.trim();
  }

  refusal(now: number): { retryAfterS: number; message: string } | undefined {
    const redis = this.deps.redis();
    const paused = redis?.until !== undefined ? { until: redis.until, label: redis.label } : this.pausedHere;
    if (!paused || now >= paused.until) return undefined;
    return {
      retryAfterS: Math.max(1, Math.ceil((paused.until - now) / 1000)),
      message: say.proxyRefusal(this.deps.providerId, paused.label, paused.until, now),
    };
  }

  setOverage(mode: "allow" | "stop" | undefined): void {
    this.overage.setMode(mode);
    this.deps.changed();
  }

  setHoldNewAtPercent(percent: number | undefined): void {
    this.holdNewAtPercent = percent;
    this.deps.changed();
  }

  /** Why new leases wait now, or undefined when nothing holds them. */
  holdReason(now: number): string | undefined {
    return this.windows.holdReason(this.holdNewAtPercent, now);
  }

  /** Resume by hand on this host: Redis lifts the pause; this host's own word goes with it. */
  lifted(): void {
    this.pausedHere = undefined;
  }

  views(): PlanWindow[] | undefined {
    return this.windows.views();
  }

  /** The status's `windows` and `overage`, each while there is one. */
  statusFields(): { windows?: PlanWindow[]; overage?: { since: number } } {
    const windows = this.windows.views();
    return { ...(windows ? { windows } : {}), ...this.overage.fields() };
  }

  dispose(): void {
    this.windows.dispose();
    this.nearReset.dispose();
  }

  private take(sightings: WindowSighting[]): void {
    for (const sighting of sightings) this.seen.set(sighting.name, Math.max(sighting.seenAt, this.seen.get(sighting.name) ?? -1));
    for (const warning of this.windows.note({ windows: sightings })) this.deps.event("window_warning", warning.message);
  }

  /**
   * What this host remembers per name stays bounded: the names it shows and those Redis holds
   * (at most MAX_WINDOWS each). Answers full of fresh names would otherwise grow it for ever.
   */
  private trim(): void {
    const keep = new Set([...this.windows.names(), ...this.inRedis]);
    for (const name of this.seen.keys()) if (!keep.has(name)) this.seen.delete(name);
    for (const name of this.shared.keys()) if (!keep.has(name)) this.shared.delete(name);
  }

  private news(sightings: WindowSighting[]): boolean {
    return sightings.some((s) => this.shared.get(s.name) !== said(s));
  }

  private share(
    now: number,
    usedUp: { label: string; resetsAt?: number } | undefined,
    sightings: WindowSighting[],
    shown: () => void,
    answered = true,
  ): void {
    this.sharedAt = now;
    for (const sighting of sightings) this.shared.set(sighting.name, said(sighting));
    this.deps.send(usedUp, sightings, shown, answered);
  }
}

/** What a sighting tells other hosts, to the whole percent. */
function said({ usedPercent, resetsAt, status, binding }: WindowSighting): string {
  return `${usedPercent === undefined ? "" : Math.floor(usedPercent)}|${resetsAt ?? ""}|${status ?? ""}|${binding === true}`;
}
