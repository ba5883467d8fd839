// The route breaker's history messages (SPEC §2), shared by the local breaker
// (route-breaker.ts) and the shared one in Redis (electron/shared-pool/shared-breaker.ts).
import { formatDuration } from "../../shared/duration";
import type { RouteKey } from "../../shared/types";

const routeName = (r: RouteKey): string => `${r.targetId} / ${r.runtimeId} / ${r.modelId}`;

export const routeOpenedMessage = (route: RouteKey, cooldownMs: number, failures: number, reason: string): string => {
  const count = failures === 1 ? "1 failure" : `${failures} consecutive failures`;
  return `Route ${routeName(route)} opened for ${formatDuration(cooldownMs)} after ${count}: ${reason}.`;
};

export const routeHalfOpenMessage = (route: RouteKey): string =>
  `Route ${routeName(route)} is half-open: the next run will probe it.`;

export const routeClosedMessage = (route: RouteKey, why: string): string => `Route ${routeName(route)} closed ${why}.`;
