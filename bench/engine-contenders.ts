// The limiters the engine is measured against, each behind one shape: a fresh limiter is a
// function that runs one task under it. Every contender gets the same no-op task and limit.
import { readFileSync } from "node:fs";
import Bottleneck from "bottleneck";
import pLimit from "p-limit";
import PQueue from "p-queue";
import { systemClock } from "../electron/engine/clock";
import { createProviderPool } from "../electron/engine/provider-pool";
import { leaseIdSource } from "../electron/host/lease-ids";

export type Task = () => Promise<void>;
export type RunUnderLimit = (task: Task) => Promise<unknown>;

export interface Contender {
  name: string;
  /** A new limiter of the given concurrency; one per measured run, so no state carries over. */
  limiter(limit: number): RunUnderLimit;
}

export const noopTask: Task = async () => {};

function installed(pkg: string): string {
  const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** Acquire → await the task → release as success, the way the host and the proxy use a pool. */
function poolLimiter(limit: number, newId: () => string): RunUnderLimit {
  const pool = createProviderPool(
    { limit, cooldownMs: 0, autoReduced: false, noticeDismissed: false },
    { providerId: "bench", clock: systemClock, newId },
  );
  // Chained rather than an `async` wrapper: an async function's frame would live for the whole
  // wait in the queue (about 350 B a task), which p-limit's contender does not pay either.
  return (task) =>
    pool.acquire().then((result) => {
      if (!result.ok) throw new Error(`acquire answered ${result.failure.kind}`);
      const { leaseId } = result.lease;
      return task().finally(() => pool.release(leaseId, "success"));
    });
}

export const headroom: Contender = {
  name: "headroom engine",
  limiter: (limit) => {
    let next = 0;
    return poolLimiter(limit, () => `L${++next}`);
  },
};

/** The host's own lease ids (128 random bits, drawn 4 KiB at a time); shown apart so the id source's cost is visible. */
export const headroomUuid: Contender = {
  name: "headroom engine, the host's lease ids",
  limiter: (limit) => poolLimiter(limit, leaseIdSource()),
};

export const pLimitContender: Contender = {
  name: `p-limit ${installed("p-limit")}`,
  limiter: (limit) => {
    const run = pLimit(limit);
    return (task) => run(task);
  },
};

export const pQueueContender: Contender = {
  name: `p-queue ${installed("p-queue")}`,
  limiter: (limit) => {
    const queue = new PQueue({ concurrency: limit });
    return (task) => queue.add(task);
  },
};

export const bottleneckContender: Contender = {
  name: `Bottleneck ${installed("bottleneck")}`,
  limiter: (limit) => {
    const limiter = new Bottleneck({ maxConcurrent: limit });
    return (task) => limiter.schedule(task);
  },
};
