// Shared pools on a fake clock against a real redis-server, for the shared pool's tests.
import type { HistoryEvent } from "../../shared/types";
import type { PoolConfig, UsageProbe } from "../../electron/engine/pool-types";
import { connectRedis, type RedisLink } from "../../electron/shared-pool/redis-link";
import { SharedPool } from "../../electron/shared-pool/shared-pool";
import type { FakeClock } from "./fake-clock";

const DEFAULT_CONFIG: PoolConfig = { limit: 2, cooldownMs: 0, autoReduced: false, noticeDismissed: false };

let prefixes = 0;

/** A key prefix no other pool in this process uses, so tests need not flush between them. */
export function freshPrefix(): string {
  return `t${process.pid}-${++prefixes}`;
}

export interface SharedHarness {
  pool: SharedPool;
  events: Omit<HistoryEvent, "at" | "providerId">[];
}

export async function sharedPool(
  link: RedisLink,
  clock: FakeClock,
  config: Partial<PoolConfig> = {},
  options: {
    host?: string;
    keyPrefix?: string;
    providerId?: string;
    refreshMs?: number;
    log?: (message: string) => void;
    onChange?: () => void;
    onLeaseExpired?: (leaseId: string) => void;
    /** Redis's clock ahead of the host's by this much (the clock given is Redis's). */
    offsetMs?: number;
    /** The host's usage gate, given before it joins (as the service gives it at creation). */
    usageProbe?: { probe: UsageProbe; pollMs: number };
  } = {},
): Promise<SharedHarness> {
  const events: SharedHarness["events"] = [];
  const pool = new SharedPool({
    providerId: options.providerId ?? "anthropic",
    host: options.host ?? "host-a",
    keyPrefix: options.keyPrefix ?? freshPrefix(),
    redis: link,
    clock,
    pollMs: 0,
    ...(options.refreshMs === undefined ? {} : { refreshMs: options.refreshMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
    ...(options.onLeaseExpired === undefined ? {} : { onLeaseExpired: options.onLeaseExpired }),
    ...(options.offsetMs === undefined ? {} : { offsetMs: () => options.offsetMs! }),
    onEvent: (event) => events.push(event),
  });
  if (options.usageProbe) pool.setUsageProbe(options.usageProbe);
  await pool.start({ ...DEFAULT_CONFIG, ...config });
  return { pool, events };
}

export { connectRedis };
