import type { Clock, TimerHandle } from "../../electron/engine/clock";

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

export interface FakeClock extends Clock {
  /** Moves time forward, firing due timers in deadline order (ties in creation order). */
  advance(ms: number): void;
  pending(): number;
  /** When the earliest pending timer is due; undefined when none is. */
  nextAt(): number | undefined;
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  const nextDue = (until: number): Timer | undefined => {
    let best: Timer | undefined;
    for (const t of timers.values()) {
      if (t.at > until) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    }
    return best;
  };

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { id, at: now + Math.max(0, ms), fn });
      return id as unknown as TimerHandle;
    },
    clearTimeout(handle) {
      timers.delete(handle as unknown as number);
    },
    advance(ms) {
      const until = now + ms;
      for (let t = nextDue(until); t; t = nextDue(until)) {
        timers.delete(t.id);
        now = Math.max(now, t.at);
        t.fn();
      }
      now = until;
    },
    pending: () => timers.size,
    nextAt: () => nextDue(Number.POSITIVE_INFINITY)?.at,
  };
}
