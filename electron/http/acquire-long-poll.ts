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
  // A client that hung up has ended its side of the socket (HTTP clients never half-close).
  const gone = () => abandoned.signal.aborted || res.destroyed || req.socket.destroyed || req.socket.readableEnded;
  const onClose = () => {
    if (!res.writableFinished) abandoned.abort();
  };
  res.on("close", onClose);
  req.socket.on("end", onClose);
  // It may have left while its body was read, before anyone listened.
  if (gone()) abandoned.abort();
  try {
    const admission = await service.acquire({ ...request, signal: abandoned.signal });
    // A hang-up that arrived together with the release that admitted us is read first.
    await new Promise((resolve) => setImmediate(resolve));
    if (gone() || !(await delivered(res, admission))) service.undelivered(admission.leaseId);
    return undefined;
  } finally {
    res.off("close", onClose);
    req.socket.off("end", onClose);
  }
}

/** Writes the admission; false when the socket closed or failed before the answer was flushed. */
function delivered(res: ServerResponse, body: unknown): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (ok: boolean) => {
      res.off("finish", onFinish);
      res.off("close", onClose);
      res.off("error", onError);
      resolve(ok);
    };
    const onFinish = () => settle(true);
    const onClose = () => settle(res.writableFinished);
    const onError = () => settle(false);
    res.on("finish", onFinish);
    res.on("close", onClose);
    res.on("error", onError);
    sendJson(res, 200, body);
    if (res.destroyed && !res.writableFinished) settle(false);
  });
}
