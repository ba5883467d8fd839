// Whether the proxy's event loop is saturated. While it is, a gated request is handed to its
// upstream, its answer to its client, and its slot and counts settled, at the end of the
// loop's turn (setImmediate) instead of at once: the messages of one turn leave together, so
// the processes on the other ends of the sockets wake once per batch rather than once per
// message, and the bookkeeping runs after the bytes. At 256 concurrent requests on 2 cores
// this cut the host's CPU per proxied request by over a quarter (408 → 301 µs; issue 27 item
// 6, docs/proxy.md). Below saturation nothing waits: a turn is short and a batch would only
// add latency.
import { performance, type EventLoopUtilization } from "node:perf_hooks";

/** Utilization is re-read at most this often; between readings the last answer stands. */
const SAMPLE_MS = 100;
/** Busy at least this share of the last sample: saturated. */
const SATURATED = 0.9;

export interface LoopPressure {
  saturated(): boolean;
}

export class EventLoopPressure implements LoopPressure {
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private readAt = performance.now();
  private busy = false;

  saturated(): boolean {
    const now = performance.now();
    if (now - this.readAt >= SAMPLE_MS) {
      const current = performance.eventLoopUtilization();
      this.busy = performance.eventLoopUtilization(current, this.last).utilization >= SATURATED;
      this.last = current;
      this.readAt = now;
    }
    return this.busy;
  }
}

// What is deferred to the end of the turn, as parallel lists (no closure per call).
let calls: Array<(arg: never) => void> = [];
let args: unknown[] = [];

/**
 * Runs `fn(arg)` at the end of the loop's turn, in order with everything else deferred in
 * this turn: one setImmediate per turn rather than one per request and step. A call that
 * throws does not keep the others from running (a slot would never come back); its error is
 * thrown on its own, as from its own setImmediate.
 */
export function atEndOfTurn<T>(fn: (arg: T) => void, arg: T): void {
  if (calls.length === 0) setImmediate(runDeferred);
  calls.push(fn as (arg: never) => void);
  args.push(arg);
}

function runDeferred(): void {
  const due = calls;
  const dueArgs = args;
  calls = [];
  args = [];
  for (let i = 0; i < due.length; i++) {
    try {
      due[i]!(dueArgs[i] as never);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }
}
