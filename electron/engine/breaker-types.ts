// The engine's route breaker contract (SPEC §2), used by the service and the proxy.
import type {
  BreakerSettings,
  HistoryEvent,
  RouteEntry,
  RouteKey,
  RouteOutcome,
  RouteRefusal,
} from "../../shared/types";
import type { Clock } from "./clock";

export interface BreakerDeps {
  clock: Clock;
  settings: BreakerSettings;
  /** Any route's visible state changed. Synchronous; callers coalesce. */
  onChange?: () => void;
  /** Transitions (opened, half-open, closed) for the activity history. */
  onEvent?: (event: Omit<HistoryEvent, "at">) => void;
  /** Routes kept in memory (default 10,000); tests lower it. */
  maxRoutes?: number;
}

export type AdmitResult = { admitted: true } | { admitted: false; block: RouteRefusal };

export interface RouteBreaker {
  admit(route: RouteKey, runId: string): AdmitResult;
  /** Read-only: never claims the probe. undefined when the route would admit. */
  blocked(route: RouteKey): RouteRefusal | undefined;
  outcome(route: RouteKey, runId: string, outcome: RouteOutcome, reason?: string): RouteEntry;
  /** Hands a probe claim back when the run never started. */
  release(route: RouteKey, runId: string): RouteEntry;
  /** Closes the route by hand. */
  reset(route: RouteKey): RouteEntry;
  entry(route: RouteKey): RouteEntry;
  snapshot(): RouteEntry[];
  settings(): BreakerSettings;
  setSettings(settings: Partial<BreakerSettings>): BreakerSettings;
  dispose(): void;
}
