import type { IncomingMessage, ServerResponse } from "node:http";
import { PUSH_TOPICS } from "../../shared/contract";
import type { HeadroomService } from "../service/headroom-service";
import { snapshotOf, startSnapshotFeed, type Delivery } from "../service/snapshot-feed";

const KEEPALIVE_MS = 15_000;

/** Server-Sent Events: a full snapshot of each topic at once, then one per coalesced change. */
export function openEventStream(service: HeadroomService, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  req.socket.setNoDelay(true);
  const write = ({ topic, snapshot }: Delivery) => res.write(`event: ${topic}\ndata: ${JSON.stringify(snapshot)}\n\n`);
  for (const topic of PUSH_TOPICS) write(snapshotOf(service, topic));

  const stop = startSnapshotFeed(service, service.clock, write);
  const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
  keepalive.unref();
  res.on("close", () => {
    stop();
    clearInterval(keepalive);
  });
}
