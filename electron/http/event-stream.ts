import type { IncomingMessage, ServerResponse } from "node:http";
import { SNAPSHOT_TOPICS } from "../../shared/contract";
import type { HeadroomService } from "../service/headroom-service";
import { snapshotOf, startSnapshotFeed } from "../service/snapshot-feed";
import { EventOutbox } from "./event-outbox";

const KEEPALIVE_MS = 15_000;

/**
 * Server-Sent Events: a whole snapshot of each topic at once, then whole `status` / `routes`
 * snapshots and `history-added` deltas per coalesced change, within the client's backlog.
 */
export function openEventStream(service: HeadroomService, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  req.socket.setNoDelay(true);
  // A client that lets its backlog pass the cap is dropped; it reconnects and starts afresh.
  const outbox = new EventOutbox(res, () => res.destroy());
  const cursor = service.historyCursor();
  for (const topic of SNAPSHOT_TOPICS) outbox.send(snapshotOf(service, topic));

  const stop = startSnapshotFeed(service, service.clock, (delivery) => outbox.send(delivery), cursor);
  const keepalive = setInterval(() => outbox.keepalive(), KEEPALIVE_MS);
  keepalive.unref();
  res.on("close", () => {
    stop();
    clearInterval(keepalive);
    outbox.close();
  });
}
