// One /events client's unsent data. A client that reads slowly costs the host at most one
// pending `status` and one pending `routes` snapshot (a newer one replaces the unsent one)
// plus 1 MiB of history deltas; past that it is disconnected, and it reconnects fresh.
import type { Writable } from "node:stream";
import type { Delivery } from "../service/snapshot-feed";

/** SPEC §3: unsent data beyond the newest snapshot of each topic. */
const MAX_BACKLOG_BYTES = 1024 * 1024;

function frameOf({ topic, snapshot }: Delivery): string {
  return `event: ${topic}\ndata: ${JSON.stringify(snapshot)}\n\n`;
}

export class EventOutbox {
  /** Unsent whole snapshots, at most one per topic (insertion order is send order). */
  private readonly latest = new Map<string, string>();
  /** The size of the newest frame of each whole-snapshot topic: the backlog may hold one each. */
  private readonly newestBytes = new Map<string, number>();
  private deltas: string[] = [];
  private deltaBytes = 0;
  private blocked = false;
  private closed = false;

  constructor(
    private readonly out: Writable,
    private readonly overflow: () => void,
  ) {
    out.on("drain", () => {
      this.blocked = false;
      this.flush();
    });
  }

  send(delivery: Delivery): void {
    if (this.closed) return;
    const frame = frameOf(delivery);
    if (delivery.topic === "history-added") {
      this.deltas.push(frame);
      this.deltaBytes += Buffer.byteLength(frame);
    } else {
      this.latest.delete(delivery.topic); // re-inserted last: the newest goes out after older news
      this.latest.set(delivery.topic, frame);
      this.newestBytes.set(delivery.topic, Buffer.byteLength(frame));
    }
    this.flush();
    if (this.backlog() > this.allowance()) {
      this.closed = true;
      this.overflow();
    }
  }

  /** A comment line that keeps proxies from closing an idle stream; skipped while the client lags. */
  keepalive(): void {
    if (!this.blocked && !this.closed) this.blocked = !this.out.write(": keepalive\n\n");
  }

  close(): void {
    this.closed = true;
    this.latest.clear();
    this.deltas = [];
    this.deltaBytes = 0;
  }

  private flush(): void {
    while (!this.blocked && !this.closed) {
      const frame = this.nextFrame();
      if (frame === undefined) return;
      this.blocked = !this.out.write(frame);
    }
  }

  private nextFrame(): string | undefined {
    // Deltas first: they are older news than any snapshot still waiting.
    const delta = this.deltas.shift();
    if (delta !== undefined) {
      this.deltaBytes -= Buffer.byteLength(delta);
      return delta;
    }
    for (const [topic, frame] of this.latest) {
      this.latest.delete(topic);
      return frame;
    }
    return undefined;
  }

  private backlog(): number {
    let pending = this.out.writableLength + this.deltaBytes;
    for (const frame of this.latest.values()) pending += Buffer.byteLength(frame);
    return pending;
  }

  private allowance(): number {
    let allowed = MAX_BACKLOG_BYTES;
    for (const bytes of this.newestBytes.values()) allowed += bytes;
    return allowed;
  }
}
