// A provider pool on a fake clock, with every callback recorded, for the pool's tests.
import type { HistoryEvent } from "../../shared/types";
import type { Clock } from "../../electron/engine/clock";
import type { AcquireResult, PoolConfig, PoolDeps, ProviderPool } from "../../electron/engine/pool-types";
import { createProviderPool } from "../../electron/engine/provider-pool";
import { createFakeClock, type FakeClock } from "./fake-clock";

export interface PoolHarness {
  pool: ProviderPool;
  clock: FakeClock;
  events: Omit<HistoryEvent, "at" | "providerId">[];
  configs: PoolConfig[];
  logs: { message: string; state: unknown }[];
  calls: { change: number; leases: number };
}

export function poolHarness(
  config: Partial<PoolConfig> = {},
  deps: Partial<Omit<PoolDeps, "clock">> & { clock?: (clock: FakeClock) => Clock } = {},
): PoolHarness {
  const clock = createFakeClock();
  let ids = 0;
  const harness: Omit<PoolHarness, "pool"> = {
    clock,
    events: [],
    configs: [],
    logs: [],
    calls: { change: 0, leases: 0 },
  };
  const { clock: wrapClock, ...rest } = deps;
  const pool = createProviderPool(
    { limit: 2, cooldownMs: 0, autoReduced: false, noticeDismissed: false, ...config },
    {
      providerId: "anthropic",
      clock: wrapClock ? wrapClock(clock) : clock,
      newId: () => `L${++ids}`,
      onChange: () => harness.calls.change++,
      onLeasesChange: () => harness.calls.leases++,
      onEvent: (event) => harness.events.push(event),
      onConfigChange: (next) => harness.configs.push(next),
      log: (message, state) => harness.logs.push({ message, state }),
      ...rest,
    },
  );
  return { ...harness, pool };
}

/** Lets every pending promise callback run; no time passes on any clock. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

export interface Tracked {
  result: AcquireResult | undefined;
  readonly settled: boolean;
  readonly leaseId: string;
}

/** Watches an acquire so a test can ask, after flush(), whether and how it was answered. */
export function track(answer: Promise<AcquireResult>): Tracked {
  const tracked: Tracked = {
    result: undefined,
    get settled() {
      return this.result !== undefined;
    },
    get leaseId() {
      if (!this.result?.ok) throw new Error(`not admitted: ${JSON.stringify(this.result)}`);
      return this.result.lease.leaseId;
    },
  };
  answer.then((result) => {
    tracked.result = result;
  });
  return tracked;
}

/** Acquires and expects an admission without any time passing. */
export async function admitNow(pool: ProviderPool, options?: Parameters<ProviderPool["acquire"]>[0]): Promise<string> {
  const result = await pool.acquire(options);
  if (!result.ok) throw new Error(`expected an admission, got ${result.failure.kind}`);
  return result.lease.leaseId;
}

/** A promise a test resolves or rejects by hand. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
