// How hard the property tests search. `npm test` keeps quick runs; `npm run soak` sets
// HEADROOM_PROPERTY_RUNS=10000 for the deep pass. A failure prints fast-check's seed and path;
// replay it with HEADROOM_PROPERTY_SEED=<seed> HEADROOM_PROPERTY_PATH=<path>.
import type { Parameters } from "fast-check";

const positive = (name: string): number | undefined => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

export function propertyRuns<T>(quickRuns: number): Parameters<T> {
  const seed = Number(process.env.HEADROOM_PROPERTY_SEED);
  const path = process.env.HEADROOM_PROPERTY_PATH;
  return {
    numRuns: positive("HEADROOM_PROPERTY_RUNS") ?? quickRuns,
    ...(Number.isInteger(seed) && process.env.HEADROOM_PROPERTY_SEED !== "" ? { seed } : {}),
    ...(path ? { path } : {}),
  };
}

/** Room for a deep pass: 10,000 runs take minutes, not the default 20 s. */
export const PROPERTY_TIMEOUT_MS = positive("HEADROOM_PROPERTY_RUNS") ? 30 * 60_000 : 60_000;
