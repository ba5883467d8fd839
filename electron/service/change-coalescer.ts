import type { Clock, TimerHandle } from "../engine/clock";
import type { SnapshotTopic as Topic } from "../../shared/contract";

/**
 * Turns a burst of change signals into at most one push per topic per window, so a window
 * stays smooth under thousands of admissions a second while still showing changes fast.
 */
export function coalesceChanges(
  clock: Clock,
  windowMs: number,
  push: (topics: ReadonlySet<Topic>) => void,
): { signal(topic: Topic): void; stop(): void } {
  let pending = new Set<Topic>();
  let timer: TimerHandle | undefined;
  let lastPush = -Infinity;

  const fire = () => {
    timer = undefined;
    lastPush = clock.now();
    const topics = pending;
    pending = new Set();
    push(topics);
  };

  return {
    signal(topic) {
      pending.add(topic);
      if (timer !== undefined) return;
      const wait = Math.max(0, lastPush + windowMs - clock.now());
      timer = clock.setTimeout(fire, wait);
    },
    stop() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
