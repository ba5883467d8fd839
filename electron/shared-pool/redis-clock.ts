// Shared state is judged on Redis's clock (SPEC §7 "Time"): a host measures its offset to
// Redis `TIME` when it connects and every 30 s, and hands the scripts its own clock plus
// that offset. Clock skew between machines then changes nothing; timers still run on the
// host's own clock, which only measures spans.
import { type Clock, systemClock } from "../engine/clock";
import type { RedisLink } from "./redis-link";

const REMEASURE_MS = 30_000;

export interface RedisClock extends Clock {
  /** Redis's clock minus the host's, in ms, as last measured. */
  readonly offsetMs: number;
  stop(): void;
}

/** A later reading is kept only if its round trip was shorter: its error is up to half of it. */
const MAX_REMEASURE_ROUND_TRIP_MS = 1_000;

/** Redis's time minus the host's, taking the host's reading halfway through the round trip. */
async function measureOffset(link: RedisLink, base: Clock): Promise<{ offsetMs: number; roundTripMs: number }> {
  const before = base.now();
  const redisNow = await link.time();
  const after = base.now();
  return { offsetMs: Math.round(redisNow - (before + after) / 2), roundTripMs: after - before };
}

export async function redisClock(link: RedisLink, base: Clock = systemClock): Promise<RedisClock> {
  let { offsetMs } = await measureOffset(link, base);
  let timer = base.setTimeout(remeasure, REMEASURE_MS);
  let stopped = false;
  function remeasure(): void {
    measureOffset(link, base).then(
      // A TIME sent while Redis was unreachable comes back seconds later: its reading is off by half that.
      (measured) => {
        if (measured.roundTripMs <= MAX_REMEASURE_ROUND_TRIP_MS) offsetMs = measured.offsetMs;
      },
      // Unreachable for now: keep the last offset; the link reports the outage elsewhere.
      () => undefined,
    );
    if (!stopped) timer = base.setTimeout(remeasure, REMEASURE_MS);
  }
  return {
    get offsetMs() {
      return offsetMs;
    },
    now: () => base.now() + offsetMs,
    setTimeout: (fn, ms) => base.setTimeout(fn, ms),
    clearTimeout: (handle) => base.clearTimeout(handle),
    stop() {
      stopped = true;
      base.clearTimeout(timer);
    },
  };
}
