import type { IncomingMessage, ServerResponse } from "node:http";
import { systemClock } from "../engine/clock";
import { coalesceChanges } from "../service/change-coalescer";
import type { HeadroomService, Topic } from "../service/headroom-service";

/** At most 20 pushes a second per topic (SPEC §4 asks for changes within 250 ms). */
export const PUSH_WINDOW_MS = 50;
const KEEPALIVE_MS = 15_000;

function snapshot(service: HeadroomService, topic: Topic): unknown {
  switch (topic) {
    case "status":
      return service.status();
    case "routes":
      return service.routes();
    case "history":
      return service.historyEvents();
  }
}

/** Server-Sent Events: a full snapshot of each topic at once, then one per coalesced change. */
export function openEventStream(service: HeadroomService, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  req.socket.setNoDelay(true);
  const write = (topic: Topic) => res.write(`event: ${topic}\ndata: ${JSON.stringify(snapshot(service, topic))}\n\n`);
  for (const topic of ["status", "routes", "history"] as const) write(topic);

  const coalescer = coalesceChanges(systemClock, PUSH_WINDOW_MS, (topics) => {
    for (const topic of topics) write(topic);
  });
  const unsubscribe = service.subscribe((topic) => coalescer.signal(topic));
  const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
  keepalive.unref();
  res.on("close", () => {
    unsubscribe();
    coalescer.stop();
    clearInterval(keepalive);
  });
}
