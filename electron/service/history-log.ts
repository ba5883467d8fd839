import type { HistoryEvent } from "../../shared/types";

const CAPACITY = 500;

/** The last 500 events in a ring, read newest first. */
export class HistoryLog {
  private readonly ring: HistoryEvent[] = [];
  private next = 0;

  add(event: HistoryEvent): void {
    if (this.ring.length < CAPACITY) this.ring.push(event);
    else this.ring[this.next] = event;
    this.next = (this.next + 1) % CAPACITY;
  }

  newestFirst(): HistoryEvent[] {
    const out: HistoryEvent[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      out.push(this.ring[(this.next - i + CAPACITY) % CAPACITY] as HistoryEvent);
    }
    return out;
  }
}
