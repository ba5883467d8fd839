// An admission asked before a shared provider has joined Redis waits for it like any waiter:
// it gives up at its own deadline or when its caller aborts, whichever comes first.
import type { Clock } from "../engine/clock";
import type { AcquireOptions } from "../engine/pool-types";

export function untilReady<T>(
  ready: Promise<T>,
  clock: Clock,
  { timeoutMs, signal }: AcquireOptions,
): Promise<T | "aborted" | "timeout"> {
  if (signal?.aborted) return Promise.resolve("aborted");
  if (timeoutMs !== undefined && timeoutMs <= 0) return Promise.resolve("timeout");
  return new Promise((resolve) => {
    const timer = timeoutMs === undefined ? undefined : clock.setTimeout(() => finish("timeout"), timeoutMs);
    const onAbort = () => finish("aborted");
    function finish(result: T | "aborted" | "timeout"): void {
      if (timer !== undefined) clock.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(result);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    ready.then(finish, () => finish("aborted"));
  });
}

/** The options with what is left of their timeout after `spentMs` of waiting on this host. */
export const timeLeft = (options: AcquireOptions, spentMs: number): AcquireOptions =>
  options.timeoutMs === undefined ? options : { ...options, timeoutMs: Math.max(0, options.timeoutMs - spentMs) };
