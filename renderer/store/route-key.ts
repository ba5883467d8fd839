import type { RouteKey } from "../../shared/types";

/** One unambiguous string per route (ids are free text, so no separator is safe). */
export const routeKeyOf = ({ targetId, runtimeId, modelId }: RouteKey): string => JSON.stringify([targetId, runtimeId, modelId]);
