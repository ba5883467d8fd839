// Main → window pushes. Every service change becomes, at most once per PUSH_WINDOW_MS and
// topic, a full `status` or `routes` snapshot (absolute deadlines inside, so countdowns tick in
// the window without further pushes) or a `history-added` with only the new events. The tray
// and notifications read the same feed as the window.
import type { PushMap, PushTopic, SnapshotTopic } from "../../shared/contract";
import type { Clock } from "../engine/clock";
import { coalesceChanges } from "./change-coalescer";
import type { HeadroomService } from "./headroom-service";

/** At most 20 pushes a second per topic; SPEC §4 wants a change on screen within 250 ms. */
export const PUSH_WINDOW_MS = 50;
/** SPEC §9: `agents` changes with every proxied request, so it goes at most twice a second. */
const AGENTS_PUSH_WINDOW_MS = 500;

/** One pushed snapshot, tagged with its topic so a consumer's `switch` narrows it. */
export type Delivery = { [T in PushTopic]: { topic: T; snapshot: PushMap[T] } }[PushTopic];

export function snapshotOf(service: HeadroomService, topic: SnapshotTopic): Delivery {
  switch (topic) {
    case "status":
      return { topic, snapshot: service.status() };
    case "routes":
      return { topic, snapshot: service.routes() };
    case "agents":
      return { topic, snapshot: service.agents() };
    case "history":
      return { topic, snapshot: service.historyEvents() };
  }
}

/**
 * Subscribes to the service; returns a stop function that drops anything still pending.
 * History deltas start after `historyCursor` (take it when the first `history` snapshot is
 * read, so no event is missed or sent twice).
 */
export function startSnapshotFeed(
  service: HeadroomService,
  clock: Clock,
  deliver: (delivery: Delivery) => void,
  historyCursor = service.historyCursor(),
): () => void {
  let cursor = historyCursor;
  const coalescer = coalesceChanges(clock, PUSH_WINDOW_MS, (topics) => {
    for (const topic of topics) {
      if (topic !== "history") {
        deliver(snapshotOf(service, topic));
        continue;
      }
      const added = service.historySince(cursor);
      cursor = added.cursor;
      if (added.events.length > 0) deliver({ topic: "history-added", snapshot: { events: added.events } });
    }
  });
  const agents = coalesceChanges(clock, AGENTS_PUSH_WINDOW_MS, () => deliver(snapshotOf(service, "agents")));
  const unsubscribe = service.subscribe((topic) => (topic === "agents" ? agents : coalescer).signal(topic));
  return () => {
    unsubscribe();
    coalescer.stop();
    agents.stop();
  };
}
