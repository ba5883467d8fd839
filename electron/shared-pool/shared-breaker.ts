// The route breakers of a shared provider (SPEC §7): routes whose targetId is the shared
// provider live in Redis, judged with breaker settings kept there for that provider, so a
// half-open route gives one probe across all hosts. Same questions and answers as the local
// breaker (electron/engine/route-breaker.ts), as promises. The rules run in breaker-script.ts;
// this host keeps only a timer per open period, so its history hears of the half-open
// transition on time (whichever host reads the route first after that instant records it).
// Every change to a route is announced on pub/sub, so a watching host can keep its view current.
import type { BreakerSettings, HistoryEvent, RouteEntry, RouteKey, RouteOutcome, RouteRefusal } from "../../shared/types";
import { routeClosedMessage, routeHalfOpenMessage, routeOpenedMessage } from "../engine/breaker-messages";
import type { AdmitResult } from "../engine/breaker-types";
import type { Clock, TimerHandle } from "../engine/clock";
import { type BreakerEvent, type BreakerOperation, type BreakerView, breakerArgs } from "./breaker-protocol";
import type { RedisLink } from "./redis-link";

export interface SharedBreakerDeps {
  providerId: string;
  /** Only the breaker script and pub/sub are used (a hub's link, once Redis answers). */
  redis: Pick<RedisLink, "breaker" | "subscribe">;
  /** Keys live under `<keyPrefix>:<providerId>:` (default prefix `headroom`), beside the pool's. */
  keyPrefix?: string;
  /** Redis's time (redis-clock.ts), or a fake clock in tests. */
  clock: Clock;
  /** Calls wait for this before they read the clock (a hub's link: Redis's clock is measured by then). */
  ready?: () => Promise<unknown>;
  /** For tests and tools: the service hears changes and transitions through `watch` instead. */
  onChange?: () => void;
  onEvent?: (event: Omit<HistoryEvent, "at">) => void;
  /** A half-open timer's read or the pub/sub subscription failed. */
  onError?: (error: Error) => void;
}

/** How the service keeps its view of a shared provider's routes (electron/service/shared-routes.ts). */
export interface BreakerWatcher {
  /** Routes as one of this host's replies showed them; `all` (a snapshot): no other route exists. */
  seen(entries: RouteEntry[], all: boolean): void;
  /** A route changed in Redis, on this host or another: read the snapshot again. */
  changed(): void;
  /** A transition this host's call made, for its history. */
  event(event: Omit<HistoryEvent, "at">): void;
}

const keyOf = (r: RouteKey): string => JSON.stringify([r.targetId, r.runtimeId, r.modelId]);
const routeOf = (id: string): RouteKey => {
  const [targetId, runtimeId, modelId] = JSON.parse(id) as [string, string, string];
  return { targetId, runtimeId, modelId };
};

export class SharedRouteBreaker {
  private readonly keys: string;
  /** One timer per route's open period, keyed by route id. */
  private readonly halfOpenTimers = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly watchers = new Set<BreakerWatcher>();
  private unsubscribe: Promise<() => Promise<void>> | undefined;
  private disposed = false;

  constructor(private readonly deps: SharedBreakerDeps) {
    this.keys = `${deps.keyPrefix ?? "headroom"}:${deps.providerId}`;
  }

  /** Seeds Redis with this host's settings unless it already holds the provider's (they win). */
  async start(settings: BreakerSettings): Promise<BreakerSettings> {
    return (await this.call("seed", {}, settings)).settings;
  }

  async admit(route: RouteKey, runId: string): Promise<AdmitResult> {
    const { admitted, now, routes } = await this.call("admit", { routeId: keyOf(route), runId });
    if (admitted) return { admitted: true };
    return { admitted: false, block: refusalOf(onlyRoute(routes), now) as RouteRefusal };
  }

  /** Read-only: never claims the probe. undefined when the route would admit. */
  async blocked(route: RouteKey): Promise<RouteRefusal | undefined> {
    const { now, routes } = await this.call("entry", { routeId: keyOf(route) });
    return refusalOf(onlyRoute(routes), now);
  }

  async outcome(route: RouteKey, runId: string, outcome: RouteOutcome, reason?: string): Promise<RouteEntry> {
    return this.one("outcome", { routeId: keyOf(route), runId, outcome, reason: reason ?? "" });
  }

  /** Hands a probe claim back when the run never started. */
  release(route: RouteKey, runId: string): Promise<RouteEntry> {
    return this.one("release", { routeId: keyOf(route), runId });
  }

  reset(route: RouteKey): Promise<RouteEntry> {
    return this.one("reset", { routeId: keyOf(route) });
  }

  entry(route: RouteKey): Promise<RouteEntry> {
    return this.one("entry", { routeId: keyOf(route) });
  }

  async snapshot(): Promise<RouteEntry[]> {
    const { now, routes } = await this.call("snapshot", {});
    return routes.map((view) => entryOf(view, now));
  }

  /** Redis's time as this host sees it: what `openUntil` in the entries counts on. */
  now(): number {
    return this.deps.clock.now();
  }

  /**
   * Tells `watcher` every route a reply shows, every transition this host makes, and every change
   * announced on `<prefix>:<providerId>:routes-changed`. Resolves once subscribed, so a snapshot
   * read after it misses no change; the function it gives stops the watching.
   */
  async watch(watcher: BreakerWatcher): Promise<() => void> {
    this.watchers.add(watcher);
    this.unsubscribe ??= this.deps.redis.subscribe(`${this.keys}:routes-changed`, () => {
      for (const w of this.watchers) w.changed();
    });
    await this.unsubscribe;
    return () => {
      this.watchers.delete(watcher);
      if (this.watchers.size === 0) this.stopListening();
    };
  }

  async settings(): Promise<BreakerSettings> {
    return (await this.call("settings", {})).settings;
  }

  async setSettings(patch: Partial<BreakerSettings>): Promise<BreakerSettings> {
    return (await this.call("setSettings", {}, patch)).settings;
  }

  dispose(): void {
    this.disposed = true;
    for (const { timer } of this.halfOpenTimers.values()) this.deps.clock.clearTimeout(timer);
    this.halfOpenTimers.clear();
    this.watchers.clear();
    this.stopListening();
  }

  private stopListening(): void {
    const subscribed = this.unsubscribe;
    this.unsubscribe = undefined;
    subscribed?.then((stop) => stop()).catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown): void {
    this.deps.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  private async one<O extends "outcome" | "release" | "reset" | "entry">(operation: O, args: Parameters<typeof breakerArgs<O>>[2]): Promise<RouteEntry> {
    const { now, routes } = await this.call(operation, args);
    return entryOf(onlyRoute(routes), now);
  }

  private async call<O extends BreakerOperation>(operation: O, args: Parameters<typeof breakerArgs<O>>[2], settings?: Partial<BreakerSettings>) {
    if (this.deps.ready) await this.deps.ready();
    const now = this.deps.clock.now();
    const reply = await this.deps.redis.breaker(breakerArgs(operation, { prefix: this.keys, now }, args, settings));
    for (const event of reply.events) this.record(event);
    for (const view of reply.routes) this.armHalfOpen(view);
    if (this.watchers.size > 0 && (reply.routes.length > 0 || operation === "snapshot")) {
      const entries = reply.routes.map((view) => entryOf(view, now));
      for (const watcher of this.watchers) watcher.seen(entries, operation === "snapshot");
    }
    if (reply.events.length > 0 || (operation !== "entry" && operation !== "refresh")) this.deps.onChange?.();
    return { ...reply, now };
  }

  /**
   * The route turns half-open at the end of its open period: read it then, so it is told on time.
   * As locally, a period's timer goes when the route is seen to leave it: a route closed and
   * opened again within one instant then gets a new timer behind those armed meanwhile, so
   * routes turning half-open at the same instant are told in the local breaker's order.
   */
  private armHalfOpen({ id, state, openUntil }: BreakerView): void {
    if (this.halfOpenTimers.get(id)?.at === openUntil && state === "open") return;
    this.disarm(id);
    if (this.disposed || state !== "open") return;
    const timer = this.deps.clock.setTimeout(() => {
      this.halfOpenTimers.delete(id);
      this.call("refresh", { routeId: id }).catch((error: unknown) => this.fail(error));
    }, openUntil - this.deps.clock.now());
    this.halfOpenTimers.set(id, { at: openUntil, timer });
  }

  private disarm(id: string): void {
    const armed = this.halfOpenTimers.get(id);
    if (!armed) return;
    this.deps.clock.clearTimeout(armed.timer);
    this.halfOpenTimers.delete(id);
  }

  private record(event: BreakerEvent): void {
    // Disabling the breaker closes routes without sending their views: the event tells.
    if (event.kind !== "opened") this.disarm(event.id);
    const told = historyOf(event);
    this.deps.onEvent?.(told);
    for (const watcher of this.watchers) watcher.event(told);
  }
}

function historyOf(event: BreakerEvent): Omit<HistoryEvent, "at"> {
  const route = routeOf(event.id);
  if (event.kind === "half-open") return { kind: "route_half_open", route, message: routeHalfOpenMessage(route) };
  if (event.kind === "opened") {
    return { kind: "route_opened", route, message: routeOpenedMessage(route, event.cooldownMs, event.failures, event.reason) };
  }
  return { kind: "route_closed", route, message: routeClosedMessage(route, event.why) };
}

/** The one route an operation on a route answers with. */
function onlyRoute(routes: BreakerView[]): BreakerView {
  const [route] = routes;
  if (!route) throw new Error("the breaker script answered without the route it was asked about");
  return route;
}

function entryOf({ id, state, openUntil, reason, failures, probeOwner }: BreakerView, now: number): RouteEntry {
  const isOpen = state === "open";
  return {
    ...routeOf(id),
    state,
    remainingMs: isOpen ? Math.max(0, openUntil - now) : 0,
    ...(isOpen ? { openUntil } : {}),
    reason,
    consecutiveFailures: failures,
    ...(probeOwner === undefined ? {} : { probeOwner }),
  };
}

function refusalOf({ state, openUntil, reason, probeOwner }: BreakerView, now: number): RouteRefusal | undefined {
  if (state === "open") return { kind: "open", remainingMs: Math.max(0, openUntil - now), reason };
  if (state === "half-open" && probeOwner !== undefined) return { kind: "probing", reason };
  return undefined;
}
