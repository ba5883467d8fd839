import type { HistoryEvent } from "../../shared/types";

const CAPACITY = 500;

/** The last 500 events in a ring, read newest first; `added` counts every event ever added. */
export class HistoryLog {
  private readonly ring: HistoryEvent[] = [];
  private next = 0;
  private total = 0;

  add(event: HistoryEvent): void {
    if (this.ring.length < CAPACITY) this.ring.push(event);
    else this.ring[this.next] = event;
    this.next = (this.next + 1) % CAPACITY;
    this.total += 1;
  }

  /** A cursor for `since`: how many events were ever added. */
  get added(): number {
    return this.total;
  }

  newestFirst(): HistoryEvent[] {
    return this.newest(this.ring.length);
  }

  /** Events added after `cursor` was read, newest first (at most the 500 the ring keeps). */
  since(cursor: number): HistoryEvent[] {
    return this.newest(Math.min(this.total - cursor, this.ring.length));
  }

  private newest(count: number): HistoryEvent[] {
    const out: HistoryEvent[] = [];
    for (let i = 1; i <= count; i++) {
      out.push(this.ring[(this.next - i + CAPACITY) % CAPACITY] as HistoryEvent);
    }
    return out;
  }
}
