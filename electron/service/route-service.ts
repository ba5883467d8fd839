// The route breakers of SPEC §2 as the service offers them: the engine's breaker plus its
// persisted settings. Route states live in memory; threshold and cooldown are written through
// the service's one settings writer. Routes whose target is a shared provider (SPEC §7) go to
// that provider's breaker in Redis instead: their answers are promises, while local routes
// keep answering at once (the proxy asks on every request).
import type {
  BreakerSettings,
  HistoryEvent,
  RouteAdmission,
  RouteEntry,
  RouteKey,
  RouteOutcome,
  RouteRefusal,
  RoutesView,
} from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { RouteBreaker } from "../engine/breaker-types";
import { createRouteBreaker } from "../engine/route-breaker";
import type { SharedRouteBreaker } from "../shared-pool/shared-breaker";
import type { SharedHub } from "../shared-pool/shared-hub";
import { HubBreakers } from "./hub-breakers";
import type { SettingsWriter } from "./settings-writer";
import { SharedRoutes } from "./shared-routes";

export interface RouteRun extends RouteKey {
  runId: string;
}

/** An answer now (a local route) or once Redis has given it (a shared provider's route). */
export type RouteAnswer<T> = T | Promise<T>;

/** How a claimed run ended for its route: "release" hands a probe claim back (the run said nothing). */
export interface RouteVerdict {
  route: RouteOutcome | "release";
  reason?: string;
}

export interface RouteServiceDeps {
  clock: Clock;
  settings: BreakerSettings;
  writer: SettingsWriter;
  onChange: () => void;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  /** Throws when the host is closing; every mutator asks first. */
  assertOpen: () => void;
  /** The route breaker of a shared provider (SPEC §7), undefined for a local target; a test may bring its own. */
  sharedBreakerOf?: (targetId: string) => SharedRouteBreaker | undefined;
  /** Else, with Redis, a shared provider's routes are judged there (SPEC §7). */
  hub?: SharedHub;
  isShared: (providerId: string) => boolean;
  log?: (message: string, state?: unknown) => void;
}

export class RouteService {
  private readonly breaker: RouteBreaker;
  private readonly shared: SharedRoutes | undefined;
  private readonly hubBreakers: HubBreakers | undefined;

  constructor(private readonly deps: RouteServiceDeps) {
    this.breaker = createRouteBreaker({
      clock: deps.clock,
      settings: deps.settings,
      onChange: deps.onChange,
      onEvent: deps.onEvent,
    });
    this.hubBreakers = deps.hub
      ? new HubBreakers({
          hub: deps.hub,
          clock: deps.clock,
          isShared: deps.isShared,
          onError: (error) => deps.log?.("A shared provider's route breaker failed", error),
        })
      : undefined;
    const breakerOf = deps.sharedBreakerOf ?? this.hubBreakers?.of;
    this.shared = breakerOf
      ? new SharedRoutes({
          clock: deps.clock,
          breakerOf,
          settings: () => this.breaker.settings(),
          onChange: deps.onChange,
          onEvent: deps.onEvent,
          onError: (error) => deps.log?.("Shared routes could not be read from Redis", error),
        })
      : undefined;
  }

  /** The host's breaker settings, with local routes and every shared provider's routes. */
  view(): RoutesView {
    const local = this.breaker.snapshot();
    const shared = this.shared;
    if (!shared) return { routes: local, settings: this.breaker.settings() };
    // A target shared now shows Redis's routes; what it did while local waits, hidden, in case it returns.
    const routes = [...local.filter((route) => !shared.has(route.targetId)), ...shared.entries()];
    return { routes, settings: this.breaker.settings() };
  }

  /**
   * Follows `sharedBreakerOf` for one target: a shared provider's breakers are started (Redis
   * seeded with this host's settings unless it holds some) and its routes shown; a provider
   * local again shows its local routes. Operations on a route do this first by themselves.
   */
  async updateSharing(targetId: string): Promise<void> {
    await this.shared?.of(targetId);
  }

  /** Read-only: never claims the probe. */
  blocked(route: RouteKey): RouteAnswer<RouteRefusal | undefined> {
    const shared = this.shared?.of(route.targetId);
    return shared ? shared.then((breaker) => breaker.blocked(route)) : this.breaker.blocked(route);
  }

  admit({ runId, ...route }: RouteRun): RouteAnswer<RouteAdmission> {
    this.deps.assertOpen();
    const shared = this.shared?.of(route.targetId);
    return shared ? shared.then((breaker) => breaker.admit(route, runId)) : this.breaker.admit(route, runId);
  }

  /** Reports how a claimed run ended; accepted while closing, like a release. */
  outcome({ runId, outcome, reason, ...route }: RouteRun & { outcome: RouteOutcome; reason?: string }): RouteAnswer<RouteEntry> {
    return this.entry(route, (breaker) => breaker.outcome(route, runId, outcome, reason), () => this.breaker.outcome(route, runId, outcome, reason));
  }

  /** Hands a claim back (the run never started); allowed while closing, so claims are never stranded. */
  release({ runId, ...route }: RouteRun): RouteAnswer<RouteEntry> {
    return this.entry(route, (breaker) => breaker.release(route, runId), () => this.breaker.release(route, runId));
  }

  reset(input: RouteKey): RouteAnswer<RouteEntry> {
    this.deps.assertOpen();
    const route = { targetId: input.targetId, runtimeId: input.runtimeId, modelId: input.modelId };
    return this.entry(route, (breaker) => breaker.reset(route), () => this.breaker.reset(route));
  }

  /**
   * The proxy's report when an exchange ends: never throws, and a shared route's report that
   * fails is logged (the exchange is over; nobody waits for it).
   */
  settle(run: RouteRun, verdict: RouteVerdict): void {
    const { route, reason } = verdict;
    const answer = route === "release" ? this.release(run) : this.outcome({ ...run, outcome: route, ...(reason ? { reason } : {}) });
    if (answer instanceof Promise) {
      answer.catch((error: unknown) => this.deps.log?.(`The outcome of a run on ${run.targetId} could not be given to Redis`, error));
    }
  }

  /**
   * The host's settings, for local routes and (only the fields changed) for every shared
   * provider's breakers, so the window's one editor changes what it shows everywhere.
   */
  setSettings(patch: Partial<BreakerSettings>): RouteAnswer<BreakerSettings> {
    this.deps.assertOpen();
    const settings = this.breaker.setSettings(patch);
    this.deps.writer.saveRoutes(settings);
    this.deps.onChange();
    const shared = this.shared?.setSettings(patch);
    return shared ? shared.then(() => settings) : settings;
  }

  dispose(): void {
    this.breaker.dispose();
    this.shared?.dispose();
    this.hubBreakers?.dispose();
  }

  private entry(
    route: RouteKey,
    onShared: (breaker: SharedRouteBreaker) => Promise<RouteEntry>,
    onLocal: () => RouteEntry,
  ): RouteAnswer<RouteEntry> {
    const shared = this.shared;
    const ready = shared?.of(route.targetId);
    if (!shared || !ready) return onLocal();
    return ready.then(async (breaker) => shared.onHostClock(await onShared(breaker), breaker));
  }
}
