// Time is a parameter of the engine so every rule can be tested by moving a fake clock.

export type TimerHandle = { readonly __timer: unique symbol } | number | object;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // Engine timers (cooldowns, pauses, watchdog) must never keep the host alive on their own.
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
