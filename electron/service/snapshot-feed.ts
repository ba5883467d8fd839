// Main → window pushes. Every service change becomes, at most once per PUSH_WINDOW_MS and
// topic, a full snapshot (absolute deadlines inside, so countdowns tick in the window without
// further pushes). The tray and notifications read the same feed as the window.
import type { PushMap, PushTopic } from "../../shared/contract";
import type { Clock } from "../engine/clock";
import { coalesceChanges } from "./change-coalescer";
import type { HeadroomService } from "./headroom-service";

/** At most 20 pushes a second per topic; SPEC §4 wants a change on screen within 250 ms. */
export const PUSH_WINDOW_MS = 50;

/** One pushed snapshot, tagged with its topic so a consumer's `switch` narrows it. */
export type Delivery = { [T in PushTopic]: { topic: T; snapshot: PushMap[T] } }[PushTopic];

export function snapshotOf(service: HeadroomService, topic: PushTopic): Delivery {
  switch (topic) {
    case "status":
      return { topic, snapshot: service.status() };
    case "routes":
      return { topic, snapshot: service.routes() };
    case "history":
      return { topic, snapshot: service.historyEvents() };
  }
}

/** Subscribes to the service; returns a stop function that drops anything still pending. */
export function startSnapshotFeed(
  service: HeadroomService,
  clock: Clock,
  deliver: (delivery: Delivery) => void,
): () => void {
  const coalescer = coalesceChanges(clock, PUSH_WINDOW_MS, (topics) => {
    for (const topic of topics) deliver(snapshotOf(service, topic));
  });
  const unsubscribe = service.subscribe((topic) => coalescer.signal(topic));
  return () => {
    unsubscribe();
    coalescer.stop();
  };
}
