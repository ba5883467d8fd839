// What the service tells its readers happened: the history (SPEC §3 `GET /concurrency/history`)
// and the change feed the pushes are made from (electron/service/snapshot-feed.ts). Every
// module the service composes reports here, so each event is stamped, kept and counted once.
import type { SnapshotTopic } from "../../shared/contract";
import type { HistoryEvent } from "../../shared/types";
import type { Clock } from "../engine/clock";
import { HistoryLog } from "./history-log";

export class ServiceEvents {
  private readonly history = new HistoryLog();
  private readonly listeners = new Set<(topic: SnapshotTopic) => void>();

  constructor(
    private readonly clock: Clock,
    /** Each event as it is kept (the metrics count them). */
    private readonly onRecorded: (event: HistoryEvent) => void,
  ) {}

  /** Stamps the event with the time, keeps it and tells the listeners that the history grew. */
  readonly record = (event: Omit<HistoryEvent, "at">): void => {
    const recorded = { at: this.clock.now(), ...event };
    this.history.add(recorded);
    this.onRecorded(recorded);
    this.emit("history");
  };

  readonly emit = (topic: SnapshotTopic): void => {
    for (const listener of this.listeners) listener(topic);
  };

  subscribe(listener: (topic: SnapshotTopic) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  newestFirst(): HistoryEvent[] {
    return this.history.newestFirst();
  }

  /** Where the history stands now: pass it to `since` to get only what came after. */
  cursor(): number {
    return this.history.added;
  }

  /** Events recorded after `cursor`, newest first, and the cursor to ask with next time. */
  since(cursor: number): { events: HistoryEvent[]; cursor: number } {
    return { events: this.history.since(cursor), cursor: this.history.added };
  }

  /** The service closed: nobody is told anything more. */
  close(): void {
    this.listeners.clear();
  }
}
