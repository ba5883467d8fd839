// Gated requests are read whole before forwarding: the route key needs the body's `model`,
// and nothing may reach the provider before a slot is held. SPEC §6 "Bounded whatever
// clients send": what is held while requests wait has a ceiling, and so has the wait for it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { atEndOfTurn } from "./loop-pressure";
import { sendProxyError, writeProxyError, type ErrorFlavor, type ProxyError } from "./proxy-errors";

export const MAX_PROXY_BODY_BYTES = 32 * 1024 * 1024;
/** All bodies held for requests that wait for a slot, together. */
const MAX_HELD_BODY_BYTES = 64 * 1024 * 1024;
/** A gated body must have arrived whole this long after the proxy started reading it. */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
/** A refused body is read and dropped up to this much, so the client reads the answer, not a reset. */
const MAX_DRAINED_BYTES = 128 * 1024 * 1024;

export function tooLargeError(): ProxyError {
  return {
    status: 413,
    code: "payload_too_large",
    message: `the request body is larger than ${MAX_PROXY_BODY_BYTES / 1024 / 1024} MiB, the most the proxy accepts.`,
  };
}

const heldFull: ProxyError = {
  status: 503,
  code: "unavailable",
  message: `the proxy already holds ${MAX_HELD_BODY_BYTES / 1024 / 1024} MiB of request bodies waiting for a slot; retry in a moment.`,
  retryAfterS: 1,
};

const timedOut = (timeoutMs: number): ProxyError => ({
  status: 408,
  code: "request_timeout",
  message: `the request body had not fully arrived ${timeoutMs / 1000} s after the proxy started reading it.`,
});

/** A declared length past the cap is refused before a byte of the body is kept. */
export function declaresTooLarge(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? 0) > MAX_PROXY_BODY_BYTES;
}

/** The bytes held by every gated body that has not yet been handed to its exchange. */
export class BodyBudget {
  private held = 0;
  constructor(private readonly max = MAX_HELD_BODY_BYTES) {}
  take(bytes: number): boolean {
    if (this.held + bytes > this.max) return false;
    this.held += bytes;
    return true;
  }
  give(bytes: number): void {
    this.held -= bytes;
  }
}

/**
 * A body read whole and counted against the budget until it is handed on. `take` gives it to
 * the forwarder and keeps no reference, so a forwarded body is freed once written, not when
 * its answer ends (a 31 MiB body otherwise stayed for the whole of a slow answer).
 */
export class HeldBody {
  private body: Buffer | undefined;
  constructor(
    body: Buffer,
    private readonly giveBack: () => void,
  ) {
    this.body = body;
  }
  /** The body while it is held (read for its model). */
  peek(): Buffer {
    return this.body ?? Buffer.alloc(0);
  }
  /** The body, once: the budget gets its bytes back and this object forgets it. */
  take(): Buffer {
    const body = this.peek();
    this.release();
    return body;
  }
  /** Gives the bytes back to the budget and drops the body (the client left, or it was refused). */
  release(): void {
    if (this.body === undefined) return;
    this.body = undefined;
    this.giveBack();
  }
}

export type GatedBody =
  | { kind: "body"; held: HeldBody }
  | { kind: "refused"; error: ProxyError; /** Read what is left (dropped) before answering. */ drain: boolean }
  | { kind: "gone" };

/**
 * The body, read into one buffer of its declared length (a chunked body is joined once at
 * its end), counted against `budget` from its first byte.
 */
export function readGatedBody(req: IncomingMessage, budget: BodyBudget, timeoutMs: number): Promise<GatedBody> {
  return new Promise((resolve) => {
    const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
    let taken = 0;
    const giveBack = () => {
      budget.give(taken);
      taken = 0;
    };
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: GatedBody) => {
      settled = true;
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("close", onClose).off("error", onClose);
      if (result.kind !== "body") giveBack();
      resolve(result);
    };
    // A body that came with its head has been read by the end of this turn: only one still
    // arriving then needs a timer (one per request cost the saturated proxy ~3 µs each).
    atEndOfTurn(() => {
      if (!settled) timer = setTimeout(() => settle({ kind: "refused", error: timedOut(timeoutMs), drain: false }), timeoutMs);
    }, undefined);
    let whole: Buffer | undefined;
    let chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > MAX_PROXY_BODY_BYTES) return settle({ kind: "refused", error: tooLargeError(), drain: true });
      if (!whole) {
        if (!budget.take(chunk.length)) return settle({ kind: "refused", error: heldFull, drain: true });
        taken += chunk.length;
        chunks.push(chunk);
      } else chunk.copy(whole, size);
      size += chunk.length;
    };
    const onEnd = () => {
      const body = whole ? whole.subarray(0, size) : Buffer.concat(chunks, size);
      chunks = [];
      whole = undefined;
      settle({ kind: "body", held: new HeldBody(body, giveBack) });
    };
    const onClose = () => {
      if (!req.complete) settle({ kind: "gone" });
    };
    if (declared !== undefined && Number.isSafeInteger(declared) && declared > 0) {
      if (declared > MAX_PROXY_BODY_BYTES) return settle({ kind: "refused", error: tooLargeError(), drain: true });
      if (!budget.take(declared)) return settle({ kind: "refused", error: heldFull, drain: true });
      taken = declared;
      whole = Buffer.allocUnsafe(declared);
    }
    req.on("data", onData).on("end", onEnd).on("close", onClose).on("error", onClose);
  });
}

/**
 * Answers a request whose body the proxy will not take. With `drain`, the answer goes out at
 * once but the response ends only after the rest of the body has been read and dropped (up
 * to a bound and `timeoutMs`, then the connection is closed), so a client still writing
 * reads the answer instead of a reset, and one that waits for it before sending gets it.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, flavor: ErrorFlavor, refusal: { error: ProxyError; drain: boolean }, timeoutMs: number): void {
  if (!refusal.drain || req.complete) {
    if (!req.complete) res.shouldKeepAlive = false;
    return sendProxyError(res, flavor, refusal.error);
  }
  if (!writeProxyError(res, flavor, refusal.error)) return;
  const { socket } = req;
  let drained = 0;
  const finish = (cut: boolean) => {
    clearTimeout(timer);
    req.off("data", onData).off("end", ended);
    res.end(() => {
      if (cut) socket.destroy();
    });
  };
  const ended = () => finish(false);
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAINED_BYTES) finish(true);
  };
  const timer = setTimeout(() => finish(true), timeoutMs);
  req.on("data", onData).on("end", ended);
  req.resume();
}
