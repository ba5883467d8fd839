// The route breakers of SPEC §2 as the service offers them: the engine's breaker plus its
// persisted settings. Route states live in memory; threshold and cooldown are written through
// the service's one settings writer.
import type { BreakerSettings, RouteAdmission, RouteEntry, RouteKey, RouteOutcome, RouteRefusal, RoutesView } from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { RouteBreaker } from "../engine/breaker-types";
import { createRouteBreaker } from "../engine/route-breaker";
import type { HistoryEvent } from "../../shared/types";
import type { SettingsWriter } from "./settings-writer";

export interface RouteRun extends RouteKey {
  runId: string;
}

export interface RouteServiceDeps {
  clock: Clock;
  settings: BreakerSettings;
  writer: SettingsWriter;
  onChange: () => void;
  onEvent: (event: Omit<HistoryEvent, "at">) => void;
  /** Throws when the host is closing; every mutator asks first. */
  assertOpen: () => void;
}

export class RouteService {
  private readonly breaker: RouteBreaker;

  constructor(private readonly deps: RouteServiceDeps) {
    this.breaker = createRouteBreaker({
      clock: deps.clock,
      settings: deps.settings,
      onChange: deps.onChange,
      onEvent: deps.onEvent,
    });
  }

  view(): RoutesView {
    return { routes: this.breaker.snapshot(), settings: this.breaker.settings() };
  }

  /** Read-only: never claims the probe. */
  blocked(route: RouteKey): RouteRefusal | undefined {
    return this.breaker.blocked(route);
  }

  admit({ runId, ...route }: RouteRun): RouteAdmission {
    this.deps.assertOpen();
    return this.breaker.admit(route, runId);
  }

  /** Reports how a claimed run ended; accepted while closing, like a release. */
  outcome({ runId, outcome, reason, ...route }: RouteRun & { outcome: RouteOutcome; reason?: string }): RouteEntry {
    return this.breaker.outcome(route, runId, outcome, reason);
  }

  /** Hands a claim back (the run never started); allowed while closing, so claims are never stranded. */
  release({ runId, ...route }: RouteRun): RouteEntry {
    return this.breaker.release(route, runId);
  }

  reset(route: RouteKey): RouteEntry {
    this.deps.assertOpen();
    return this.breaker.reset({ targetId: route.targetId, runtimeId: route.runtimeId, modelId: route.modelId });
  }

  setSettings(patch: Partial<BreakerSettings>): BreakerSettings {
    this.deps.assertOpen();
    const settings = this.breaker.setSettings(patch);
    this.deps.writer.saveRoutes(settings);
    this.deps.onChange();
    return settings;
  }

  dispose(): void {
    this.breaker.dispose();
  }
}
