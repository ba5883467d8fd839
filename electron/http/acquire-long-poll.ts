import type { IncomingMessage, ServerResponse } from "node:http";
import type { AcquireRequest } from "../../shared/validate";
import type { HeadroomService } from "../service/headroom-service";
import { sendJson } from "./http-io";

/**
 * Holds the request open until a slot is free. A client that hangs up while queued leaves the
 * queue; an admission that can no longer be delivered goes back at once, without cooldown.
 */
export async function acquireLongPoll(
  service: HeadroomService,
  request: AcquireRequest,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<undefined> {
  const abandoned = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) abandoned.abort();
  };
  res.on("close", onClose);
  // It may have left while its body was read, before anyone listened.
  if (res.destroyed || req.socket.destroyed) abandoned.abort();
  try {
    const admission = await service.acquire({ ...request, signal: abandoned.signal });
    if (abandoned.signal.aborted || res.destroyed || req.socket.destroyed) {
      service.undelivered(admission.leaseId);
      return undefined;
    }
    sendJson(res, 200, admission);
    return undefined;
  } finally {
    res.off("close", onClose);
  }
}
