// Every load loop in the benches is bounded in time as well as in count. The bound is a
// referenced timer on purpose: engine timers are unref'd (systemClock), so without it a
// process waiting only on them would exit mid-measurement instead of finishing.

/** Resolves as `work` does, or rejects once `ms` have passed, naming what overran. */
export async function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, overrun]);
  } finally {
    clearTimeout(timer);
  }
}
