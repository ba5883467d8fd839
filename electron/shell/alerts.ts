// What deserves a desktop notification: a limit Headroom lowered by itself, a route whose
// breaker just opened (both found by comparing consecutive pushed snapshots, so nothing already
// true when the app started, or re-opening after a failed probe, raises one again), and a plan
// window used up or reset (from the history as it is added). At most one a minute per provider.
import type { Delivery } from "../service/snapshot-feed";
import { formatRemaining } from "../../shared/duration";
import type { ConcurrencyStatusResponse, HistoryEvent, RouteEntry, RoutesView } from "../../shared/types";

const PER_PROVIDER_MS = 60_000;
// SPEC §4: a restore that did not stick says so in its notice and is not notified again.
const LOWERED_AGAIN = / lowered the limit again .* after the restore/;

export interface Alert {
  title: string;
  body: string;
}

function reductionAlerts(before: ConcurrencyStatusResponse, after: ConcurrencyStatusResponse): Alert[] {
  const previous = new Map(before.providers.map((entry) => [entry.providerId, entry]));
  const alerts: Alert[] = [];
  for (const entry of after.providers) {
    const was = previous.get(entry.providerId);
    if (!was || !entry.autoReduced || entry.limit >= was.limit || LOWERED_AGAIN.test(entry.notice ?? "")) continue;
    alerts.push({
      title: `${entry.providerId}: limit lowered to ${entry.limit}`,
      body: entry.notice ?? `Headroom lowered the limit for ${entry.providerId} from ${was.limit} to ${entry.limit}.`,
    });
  }
  return alerts;
}

const routeName = (r: RouteEntry) => `${r.targetId} / ${r.runtimeId} / ${r.modelId}`;

function routeAlerts(before: RoutesView, after: RoutesView): Alert[] {
  const previous = new Map(before.routes.map((r) => [routeName(r), r.state]));
  const alerts: Alert[] = [];
  for (const route of after.routes) {
    const was = previous.get(routeName(route)) ?? "closed";
    if (route.state !== "open" || was !== "closed") continue;
    alerts.push({
      title: `Route opened: ${routeName(route)}`,
      body: `${route.reason || "It kept failing"}. New runs are refused for ${formatRemaining(route.remainingMs)}, then one probe is let through.`,
    });
  }
  return alerts;
}

const WINDOW_TITLES: Partial<Record<HistoryEvent["kind"], string>> = {
  window_exhausted: "plan window used up",
  window_reset: "plan window reset",
  overage_started: "paying for extra usage", // SPEC §8
  budget_reached: "daily budget reached", // SPEC §9: it pauses like a used-up window
};

/** SPEC §8: a used-up window and a reset (agents admitted again), from the events just added. */
function windowAlerts(events: HistoryEvent[]): (Alert & { providerId: string })[] {
  const alerts: (Alert & { providerId: string })[] = [];
  // Newest first on the wire; notified oldest first.
  for (const event of [...events].reverse()) {
    const title = WINDOW_TITLES[event.kind];
    if (title && event.providerId) alerts.push({ providerId: event.providerId, title: `${event.providerId}: ${title}`, body: event.message });
  }
  return alerts;
}

/** Remembers the last snapshot per topic; the first one only sets the baseline. */
export function createAlertTracker(now: () => number = Date.now): { observe(delivery: Delivery): Alert[] } {
  let status: ConcurrencyStatusResponse | undefined;
  let routes: RoutesView | undefined;
  const lastAt = new Map<string, number>();
  const throttled = (providerOf: (alert: Alert) => string | undefined, alerts: Alert[]): Alert[] =>
    alerts.filter((alert) => {
      const providerId = providerOf(alert);
      if (providerId === undefined) return true;
      const at = now();
      const last = lastAt.get(providerId);
      if (last !== undefined && at - last < PER_PROVIDER_MS) return false;
      lastAt.set(providerId, at);
      return true;
    });
  const byTitle = (alert: Alert) => /^([^:]+):/.exec(alert.title)?.[1];
  return {
    observe(delivery) {
      switch (delivery.topic) {
        case "status": {
          const alerts = status ? reductionAlerts(status, delivery.snapshot) : [];
          status = delivery.snapshot;
          return throttled(byTitle, alerts);
        }
        case "routes": {
          const alerts = routes ? routeAlerts(routes, delivery.snapshot) : [];
          routes = delivery.snapshot;
          return alerts;
        }
        case "history-added": {
          const alerts = windowAlerts(delivery.snapshot.events);
          const owners = new Map<Alert, string>(alerts.map((a) => [a, a.providerId]));
          return throttled((alert) => owners.get(alert), alerts).map(({ title, body }) => ({ title, body }));
        }
        case "agents":
        case "history":
          return [];
      }
    },
  };
}
