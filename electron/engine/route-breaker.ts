// The route circuit breaker of SPEC §2: per (target, runtime, model), consecutive failures
// open the route for a cooldown, then one probe run decides whether it closes again.
// Pure: time and timers come only from deps.clock, so every transition is tested by
// moving a fake clock.
import type { BreakerSettings, RouteEntry, RouteKey, RouteOutcome, RouteRefusal, RouteState } from "../../shared/types";
import type { AdmitResult, BreakerDeps, RouteBreaker } from "./breaker-types";
import { routeClosedMessage, routeHalfOpenMessage, routeOpenedMessage } from "./breaker-messages";
import type { TimerHandle } from "./clock";

/** A probe that neither reports nor is released is forgotten after this long at least. */
const MIN_PROBE_TTL_MS = 60_000;
/** Used when a failure comes without a reason, so a refusal always says something. */
const DEFAULT_REASON = "failure";
/** SPEC §2: model ids come from clients, so the map is bounded; past this, closed routes are forgotten. */
export const MAX_ROUTES = 10_000;

interface Probe {
  owner: string;
  expiresAt: number;
  timer: TimerHandle;
}

interface Route {
  key: RouteKey;
  state: RouteState;
  failures: number;
  /** The last failure's reason; "" once the route is closed with no failure counted. */
  reason: string;
  /** While open: when the open period ends. */
  openUntil: number;
  /** While open: the timer that turns the route half-open. */
  halfOpenTimer?: TimerHandle;
  /** While half-open: the run holding the single probe. */
  probe?: Probe;
}

// JSON of the triple, not a joined string: ids may contain any separator we could pick.
// Length-prefixed, so no two routes share a key whatever their ids hold; read three times per
// proxied request, where JSON.stringify of an array was a measurable share (issue 27 item 6).
const keyOf = (r: RouteKey): string => `${r.targetId.length}:${r.targetId}${r.runtimeId.length}:${r.runtimeId}${r.modelId}`;

export function createRouteBreaker(deps: BreakerDeps): RouteBreaker {
  const { clock } = deps;
  let settings: BreakerSettings = { ...deps.settings };
  const maxRoutes = deps.maxRoutes ?? MAX_ROUTES;
  const routes = new Map<string, Route>();
  /** The id last in `routes` (the most recently used), which need not move again. */
  let newest: string | undefined;
  let disposed = false;

  const changed = () => deps.onChange?.();
  const event = (kind: "route_opened" | "route_half_open" | "route_closed", route: Route, message: string) =>
    deps.onEvent?.({ kind, route: { ...route.key }, message });

  const blank = (key: RouteKey): Route => ({
    key: { targetId: key.targetId, runtimeId: key.runtimeId, modelId: key.modelId },
    state: "closed",
    failures: 0,
    reason: "",
    openUntil: 0,
  });

  /**
   * The route as the breaker knows it; `record` remembers it for the snapshot. The map's
   * order is its use order (a use moves the route to the end), so the oldest closed route
   * is the first closed one found from the start.
   */
  function find(key: RouteKey, record: boolean): Route {
    const id = keyOf(key);
    let route = routes.get(id);
    if (route) {
      // Most recently used last; the proxy asks three times per request, mostly for the same route.
      if (id !== newest) {
        routes.delete(id);
        routes.set(id, route);
        newest = id;
      }
      return refresh(route);
    }
    route = blank(key);
    if (record) {
      routes.set(id, route);
      newest = id;
      if (routes.size > maxRoutes) forgetOldestClosed();
    }
    return route;
  }

  /** Open and half-open routes are never dropped: forgetting one would let traffic through early. */
  function forgetOldestClosed(): void {
    for (const [id, route] of routes) {
      if (route.state !== "closed" || route.probe) continue;
      routes.delete(id);
      return;
    }
  }

  function clearProbe(route: Route): void {
    if (!route.probe) return;
    clock.clearTimeout(route.probe.timer);
    delete route.probe;
  }

  function clearHalfOpenTimer(route: Route): void {
    if (route.halfOpenTimer === undefined) return;
    clock.clearTimeout(route.halfOpenTimer);
    delete route.halfOpenTimer;
  }

  /**
   * Applies transitions that are due. Timers drive them so listeners hear of them on time,
   * but reads apply them too, so a late or dropped timer never shows a stale state.
   */
  function refresh(route: Route): Route {
    const now = clock.now();
    if (route.state === "open" && now >= route.openUntil) {
      clearHalfOpenTimer(route);
      route.state = "half-open";
      event("route_half_open", route, routeHalfOpenMessage(route.key));
      changed();
    }
    if (route.probe && now >= route.probe.expiresAt) {
      // A crashed prober must not wedge the route; its silence is not a verdict on the route.
      clearProbe(route);
      changed();
    }
    return route;
  }

  /** Arms the timer that ends this open period; it fires late or early, never wrongly. */
  function armHalfOpen(route: Route): void {
    const handle: TimerHandle = clock.setTimeout(() => {
      // Only the route's current timer may act: a stale one must not end a fresh period.
      if (disposed || route.halfOpenTimer !== handle) return;
      delete route.halfOpenTimer;
      // A real timer may fire a millisecond early; waiting the rest keeps the event on time.
      if (clock.now() < route.openUntil) armHalfOpen(route);
      else refresh(route);
    }, route.openUntil - clock.now());
    route.halfOpenTimer = handle;
  }

  function armProbeExpiry(route: Route, probe: Probe): void {
    probe.timer = clock.setTimeout(() => {
      if (disposed || route.probe !== probe) return;
      if (clock.now() < probe.expiresAt) armProbeExpiry(route, probe);
      else refresh(route);
    }, probe.expiresAt - clock.now());
  }

  function open(route: Route): void {
    clearProbe(route);
    // Each open period owns exactly one timer: the previous one is cancelled before the
    // new one is armed (never after, which would leave the route open until a read).
    clearHalfOpenTimer(route);
    route.state = "open";
    route.openUntil = clock.now() + settings.cooldownMs;
    armHalfOpen(route);
    event("route_opened", route, routeOpenedMessage(route.key, settings.cooldownMs, route.failures, route.reason));
  }

  function close(route: Route, why: string): void {
    const wasClosed = route.state === "closed";
    clearProbe(route);
    clearHalfOpenTimer(route);
    route.state = "closed";
    route.failures = 0;
    route.reason = "";
    if (!wasClosed) event("route_closed", route, routeClosedMessage(route.key, why));
  }

  function claim(route: Route, runId: string): void {
    const ttl = Math.max(settings.cooldownMs, MIN_PROBE_TTL_MS);
    const probe: Probe = { owner: runId, expiresAt: clock.now() + ttl, timer: 0 };
    route.probe = probe;
    armProbeExpiry(route, probe);
  }

  function refusal(route: Route): RouteRefusal | undefined {
    if (route.state === "open") {
      return { kind: "open", remainingMs: Math.max(0, route.openUntil - clock.now()), reason: route.reason };
    }
    if (route.state === "half-open" && route.probe) return { kind: "probing", reason: route.reason };
    return undefined;
  }

  // Built field by field, without spreads: the proxy asks for an entry on every request.
  function view(route: Route): RouteEntry {
    const { targetId, runtimeId, modelId } = route.key;
    const entry: RouteEntry = {
      targetId,
      runtimeId,
      modelId,
      state: route.state,
      remainingMs: 0,
      reason: route.reason,
      consecutiveFailures: route.failures,
    };
    if (route.state === "open") {
      entry.remainingMs = Math.max(0, route.openUntil - clock.now());
      entry.openUntil = route.openUntil;
    }
    if (route.probe) entry.probeOwner = route.probe.owner;
    return entry;
  }

  function admit(key: RouteKey, runId: string): AdmitResult {
    const route = find(key, true);
    if (route.state === "half-open" && !route.probe) {
      claim(route, runId);
      changed();
      return { admitted: true };
    }
    // The probe's own run asking again is still the one probe, not a second one.
    if (route.probe?.owner === runId) return { admitted: true };
    const block = refusal(route);
    return block ? { admitted: false, block } : { admitted: true };
  }

  function outcome(key: RouteKey, runId: string, result: RouteOutcome, reason?: string): RouteEntry {
    const route = find(key, true);
    if (route.state !== "closed") {
      // While open or half-open only the probe's verdict counts: runs admitted before the
      // route opened say nothing about it now.
      if (route.probe?.owner !== runId) return view(route);
      if (result === "success") close(route, "after a successful probe");
      else if (result === "failure") {
        route.failures += 1;
        route.reason = reason || DEFAULT_REASON;
        open(route);
      } else {
        // A neutral probe (e.g. a bad request) finished without a verdict: the route stays
        // half-open and the next admission may probe instead of waiting for the expiry.
        clearProbe(route);
      }
      changed();
      return view(route);
    }
    if (result === "neutral") return view(route);
    if (result === "success") {
      if (route.failures === 0 && route.reason === "") return view(route);
      close(route, "after a success");
    } else {
      route.failures += 1;
      route.reason = reason || DEFAULT_REASON;
      // A cooldown of 0 disables the breaker: failures are still counted, nothing opens.
      if (route.failures >= settings.threshold && settings.cooldownMs > 0) open(route);
    }
    changed();
    return view(route);
  }

  function release(key: RouteKey, runId: string): RouteEntry {
    const route = find(key, false);
    if (route.probe?.owner === runId) {
      clearProbe(route);
      changed();
    }
    return view(route);
  }

  function reset(key: RouteKey): RouteEntry {
    const route = find(key, false);
    if (route.state !== "closed" || route.failures > 0 || route.reason !== "") {
      close(route, "by hand");
      changed();
    }
    return view(route);
  }

  function setSettings(patch: Partial<BreakerSettings>): BreakerSettings {
    settings = {
      threshold: patch.threshold ?? settings.threshold,
      cooldownMs: patch.cooldownMs ?? settings.cooldownMs,
    };
    if (settings.cooldownMs === 0) {
      // Disabling the breaker must let every route through now, not after its cooldown.
      let any = false;
      for (const route of routes.values()) {
        if (route.state === "closed") continue;
        close(route, "because the breaker was disabled");
        any = true;
      }
      if (any) changed();
    }
    return { ...settings };
  }

  return {
    admit,
    blocked: (key) => refusal(find(key, false)),
    outcome,
    release,
    reset,
    entry: (key) => view(find(key, false)),
    snapshot: () => [...routes.values()].map((route) => view(refresh(route))),
    settings: () => ({ ...settings }),
    setSettings,
    dispose() {
      disposed = true;
      for (const route of routes.values()) {
        clearProbe(route);
        clearHalfOpenTimer(route);
      }
    },
  };
}
