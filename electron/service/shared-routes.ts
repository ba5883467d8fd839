// The routes of shared providers as this host sees them (SPEC §7): their breakers live in
// Redis (electron/shared-pool/shared-breaker.ts), but the routes view and its pushed snapshot
// are synchronous, so this keeps a copy per shared provider. The copy takes every route a
// reply of this host shows (so it is current when an operation answers) and the whole snapshot
// again whenever a route changes in Redis, on any host (pub/sub). Times are shown on this
// host's clock, like everything else it reports.
import type { BreakerSettings, HistoryEvent, RouteEntry } from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { SharedRouteBreaker } from "../shared-pool/shared-breaker";

export interface SharedRoutesDeps {
  clock: Clock;
  /** The route breaker of a shared provider, undefined while the target is local. */
  breakerOf: (targetId: string) => SharedRouteBreaker | undefined;
  /** The host's breaker settings now: what a provider's breakers start with unless Redis holds some. */
  settings: () => BreakerSettings;
  onChange: () => void;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  onError: (error: Error) => void;
}

/** One shared provider's breaker as this host watches it. */
class Watched {
  /** By route id, on Redis's clock, in the order Redis listed them or this host first saw them. */
  routes = new Map<string, RouteEntry>();
  stop: (() => void) | undefined;
  forgotten = false;
  reading = false;
  readAgain = false;
  /** Started (settings seeded), watched and read: operations wait for it. */
  readonly ready: Promise<SharedRouteBreaker>;

  constructor(
    readonly breaker: SharedRouteBreaker,
    start: (watched: Watched) => Promise<SharedRouteBreaker>,
  ) {
    this.ready = start(this);
  }
}

const idOf = (e: RouteEntry): string => JSON.stringify([e.targetId, e.runtimeId, e.modelId]);

/** How a route Redis has never recorded reads (a read-only question about a new route answers this). */
const pristine = (e: RouteEntry): boolean =>
  e.state === "closed" && e.consecutiveFailures === 0 && e.reason === "" && e.probeOwner === undefined;

/** Whether a person would see a difference (remainingMs only counts down). */
const differs = (a: RouteEntry, b: RouteEntry): boolean =>
  a.state !== b.state ||
  a.openUntil !== b.openUntil ||
  a.reason !== b.reason ||
  a.consecutiveFailures !== b.consecutiveFailures ||
  a.probeOwner !== b.probeOwner;

export class SharedRoutes {
  private readonly byTarget = new Map<string, Watched>();
  private disposed = false;

  constructor(private readonly deps: SharedRoutesDeps) {}

  /**
   * The target's shared breaker once started and watched, or undefined when the target is local
   * (synchronously, so local routes pay nothing). A provider shared again gets a new breaker.
   */
  of(targetId: string): Promise<SharedRouteBreaker> | undefined {
    const breaker = this.deps.breakerOf(targetId);
    const known = this.byTarget.get(targetId);
    if (known && known.breaker !== breaker) this.forget(targetId);
    if (!breaker || this.disposed) return undefined;
    return (known?.breaker === breaker ? known : this.adopt(targetId, breaker)).ready;
  }

  /** Whether the target's routes are shown from Redis (its local routes are hidden meanwhile). */
  has(targetId: string): boolean {
    const watched = this.byTarget.get(targetId);
    return watched !== undefined && this.deps.breakerOf(targetId) === watched.breaker;
  }

  /** Every shared provider's routes, on this host's clock. */
  entries(): RouteEntry[] {
    const entries: RouteEntry[] = [];
    for (const [targetId, watched] of this.byTarget) {
      if (!this.has(targetId)) continue; // made local again meanwhile
      for (const entry of watched.routes.values()) entries.push(this.onHostClock(entry, watched.breaker));
    }
    return entries;
  }

  /** An entry a shared breaker answered, with `openUntil` moved from Redis's clock to this host's. */
  onHostClock(entry: RouteEntry, breaker: SharedRouteBreaker): RouteEntry {
    if (entry.openUntil === undefined) return entry;
    const remainingMs = Math.max(0, entry.openUntil - breaker.now());
    return { ...entry, remainingMs, openUntil: this.deps.clock.now() + remainingMs };
  }

  /** The host's settings change reaches every shared provider's breakers too (only the fields changed). */
  setSettings(patch: Partial<BreakerSettings>): Promise<void> | undefined {
    if (this.byTarget.size === 0) return undefined;
    const shared = [...this.byTarget].filter(([targetId]) => this.has(targetId));
    return Promise.all(shared.map(async ([, { ready }]) => (await ready).setSettings(patch))).then(() => undefined);
  }

  /** Stops watching; the breakers themselves belong to whoever shared the providers. */
  dispose(): void {
    this.disposed = true;
    for (const targetId of [...this.byTarget.keys()]) this.forget(targetId);
  }

  private adopt(targetId: string, breaker: SharedRouteBreaker): Watched {
    const watched = new Watched(breaker, (w) => this.start(w));
    // A start that failed is tried again by the next operation on the target.
    watched.ready.catch(() => this.byTarget.get(targetId) === watched && this.forget(targetId));
    this.byTarget.set(targetId, watched);
    return watched;
  }

  private async start(watched: Watched): Promise<SharedRouteBreaker> {
    const { breaker } = watched;
    await breaker.start(this.deps.settings());
    const stop = await breaker.watch({
      seen: (entries, all) => this.seen(watched, entries, all),
      changed: () => this.read(watched),
      event: (event) => this.deps.onEvent(event),
    });
    if (watched.forgotten) stop();
    else watched.stop = stop;
    await breaker.snapshot(); // what other hosts did before this one watched
    return breaker;
  }

  private forget(targetId: string): void {
    const watched = this.byTarget.get(targetId);
    if (!watched) return;
    this.byTarget.delete(targetId);
    watched.forgotten = true;
    watched.stop?.();
    if (watched.routes.size > 0) this.deps.onChange();
  }

  private seen(watched: Watched, entries: RouteEntry[], all: boolean): void {
    if (watched.forgotten) return;
    let changed = all && entries.length !== watched.routes.size;
    const routes = all ? new Map<string, RouteEntry>() : watched.routes;
    for (const entry of entries) {
      const id = idOf(entry);
      const before = watched.routes.get(id);
      // Redis may not hold it: if it does, the snapshot its recording announced brings it.
      if (!before && !all && pristine(entry)) continue;
      if (!before || differs(before, entry)) changed = true;
      routes.set(id, entry);
    }
    watched.routes = routes;
    if (changed) this.deps.onChange();
  }

  /** Reads the snapshot again; changes announced meanwhile cause one more read, not one each. */
  private read(watched: Watched): void {
    if (watched.reading) {
      watched.readAgain = true;
      return;
    }
    watched.reading = true;
    watched.breaker
      .snapshot()
      .catch((error: unknown) => this.deps.onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        watched.reading = false;
        if (!watched.readAgain || watched.forgotten) return;
        watched.readAgain = false;
        this.read(watched);
      });
  }
}
