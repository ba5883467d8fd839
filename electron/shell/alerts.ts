// What deserves a desktop notification: a limit Headroom lowered by itself, and a route whose
// breaker just opened. Found by comparing consecutive pushed snapshots, so nothing already
// true when the app started (or re-opening after a failed probe) raises one again.
import type { Delivery } from "../service/snapshot-feed";
import { formatRemaining } from "../../shared/duration";
import type { ConcurrencyStatusResponse, RouteEntry, RoutesView } from "../../shared/types";

export interface Alert {
  title: string;
  body: string;
}

function reductionAlerts(before: ConcurrencyStatusResponse, after: ConcurrencyStatusResponse): Alert[] {
  const previous = new Map(before.providers.map((entry) => [entry.providerId, entry]));
  const alerts: Alert[] = [];
  for (const entry of after.providers) {
    const was = previous.get(entry.providerId);
    if (!was || !entry.autoReduced || entry.limit >= was.limit) continue;
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

/** Remembers the last snapshot per topic; the first one only sets the baseline. */
export function createAlertTracker(): { observe(delivery: Delivery): Alert[] } {
  let status: ConcurrencyStatusResponse | undefined;
  let routes: RoutesView | undefined;
  return {
    observe(delivery) {
      switch (delivery.topic) {
        case "status": {
          const alerts = status ? reductionAlerts(status, delivery.snapshot) : [];
          status = delivery.snapshot;
          return alerts;
        }
        case "routes": {
          const alerts = routes ? routeAlerts(routes, delivery.snapshot) : [];
          routes = delivery.snapshot;
          return alerts;
        }
        case "agents":
        case "history":
        case "history-added":
        case "agents":
          return [];
      }
    },
  };
}
