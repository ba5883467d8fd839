import type { UsageGateConfig } from "../../shared/types";
import type { UsageProbe } from "../engine/pool-types";

/** Polls a provider's usage endpoint for `concurrent_sessions`; the pool owns the 2 s fail-open rule. */
export function httpUsageProbe(config: UsageGateConfig): UsageProbe {
  return async (signal) => {
    const response = await fetch(config.url, { headers: config.headers ?? {}, signal });
    if (!response.ok) throw new Error(`usage endpoint answered ${response.status}`);
    const body = (await response.json()) as { concurrent_sessions?: unknown };
    const sessions = body?.concurrent_sessions;
    if (typeof sessions !== "number" || !Number.isFinite(sessions)) {
      throw new Error("usage endpoint gave no numeric concurrent_sessions");
    }
    return sessions;
  };
}
