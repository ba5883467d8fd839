import type { IncomingMessage, ServerResponse } from "node:http";
import type { AcquireRequest } from "../../shared/validate";
import type { HeadroomService } from "../service/headroom-service";
import { sendJson } from "./http-io";
import { requestsOn } from "./socket-requests";

/** How long after the answer a reset still means it was never read (loopback: about 1 ms). */
const RESET_GRACE_MS = 1_000;

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
    if (gone() || !(await delivered(res, admission))) {
      service.undelivered(admission.leaseId);
      return undefined;
    }
    // Flushed, then reset by the peer: it closed with the admission unread in its buffer.
    onUnreadReset(req, () => service.undelivered(admission.leaseId));
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

/**
 * A reset (ECONNRESET / EPIPE) on the socket soon after the answer means the client closed it
 * with the admission unread. Watching stops at the next request on that socket: a client that
 * sent one had read the answer, and a reset after that says nothing about the admission.
 */
/** The watch of each socket's latest admission: a newer one proves the older was read. */
const watching = new WeakMap<IncomingMessage["socket"], () => void>();

function onUnreadReset(req: IncomingMessage, undelivered: () => void): void {
  const socket = req.socket;
  watching.get(socket)?.();
  const requests = requestsOn(socket);
  const onError = (error: NodeJS.ErrnoException) => {
    stop();
    const unread = error.code === "ECONNRESET" || error.code === "EPIPE";
    if (unread && requestsOn(socket) === requests) undelivered();
  };
  const stop = () => {
    clearTimeout(timer);
    socket.off("error", onError);
    socket.off("close", stop);
    if (watching.get(socket) === stop) watching.delete(socket);
  };
  watching.set(socket, stop);
  const timer = setTimeout(stop, RESET_GRACE_MS);
  timer.unref();
  socket.on("error", onError);
  socket.once("close", stop);
}
