// One request carried to the upstream and its answer streamed back as it arrives. pipe()
// gives backpressure both ways; nothing is buffered here beyond what the sockets hold.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { requestHeaders, responseHeaders } from "./forward-headers";
import { sendProxyError, type ErrorFlavor } from "./proxy-errors";
import { DEFAULT_BODY_TIMEOUT_MS, MAX_PROXY_BODY_BYTES, refuseBody, tooLargeError } from "./request-body";
import { unreachedBy } from "./unreached";
import { atEndOfTurn, type LoopPressure } from "./loop-pressure";

/**
 * How an exchange ended, for the gating decision. `status` is set once upstream answered;
 * `unreached` says why it never could (SPEC §4 `upstreamFailures`).
 */
export type ForwardEnd =
  | { kind: "completed"; status: number; headers: IncomingHttpHeaders }
  | { kind: "client_gone"; status?: number; headers?: IncomingHttpHeaders }
  | { kind: "upstream_error"; status?: number; timedOut: boolean; detail: string; unreached?: string };

export interface Upstreams {
  http: HttpAgent;
  https: HttpsAgent;
  /** This proxy's id in `x-headroom-hop`. */
  hopId: string;
  log: (message: string) => void;
}

export function createUpstreams(hopId: string, log: (message: string) => void): Upstreams {
  // Keep-alive: a fresh TCP (and TLS) handshake per request would dominate the added latency.
  return { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }), hopId, log };
}

export interface ForwardInput {
  req: IncomingMessage;
  res: ServerResponse;
  target: URL;
  flavor: ErrorFlavor;
  /** What the log may say about this request: provider, method and path, never headers or query. */
  label: string;
  /** The body already read by the proxy; absent = stream the client's body through (at most 32 MiB). */
  body?: Buffer;
  /** No byte from upstream for this long (connect, response head, between chunks) is a failure. */
  timeoutMs: number;
  /** While the loop is saturated, answers are relayed at the end of the loop's turn. */
  pressure?: LoopPressure;
  /** Sees the response head and every chunk as they pass, e.g. to read errors inside a 200 stream. */
  observe?: { head(incoming: IncomingMessage): void; chunk(chunk: Buffer): void };
}

export function forward(upstreams: Upstreams, input: ForwardInput, onEnd: (end: ForwardEnd) => void): void {
  // No closure here keeps `input`: a held body is freed once written, not when the answer ends.
  const { req, res, target, body, label, flavor, timeoutMs, observe } = input;
  const secure = target.protocol === "https:";
  // Options rather than the URL itself: Node's URL-to-options conversion reads every part of
  // the URL, a measurable share of the proxy's own work per request at saturation.
  const { hostname } = target;
  const outbound = (secure ? httpsRequest : httpRequest)({
    protocol: target.protocol,
    hostname: hostname.startsWith("[") ? hostname.slice(1, -1) : hostname,
    port: target.port,
    path: `${target.pathname}${target.search}`,
    method: req.method ?? "GET",
    headers: requestHeaders(req, target, upstreams.hopId, body?.length),
    agent: secure ? upstreams.https : upstreams.http,
  });

  let answer: IncomingMessage | undefined;
  let upstreamBroke: Error | undefined;
  let clientGone = false;
  let timedOut = false;
  let ended = false;
  const end = (result: ForwardEnd) => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    onEnd(result);
  };
  const idle = setTimeout(() => {
    timedOut = true;
    outbound.destroy(new Error("upstream idle timeout"));
  }, timeoutMs);

  const describe = (error: Error): { timedOut: boolean; detail: string } =>
    timedOut
      ? { timedOut, detail: `no bytes from upstream for ${timeoutMs / 1000} s` }
      : { timedOut, detail: `upstream connection failed (${(error as NodeJS.ErrnoException).code ?? error.message})` };

  outbound.on("socket", (socket) => socket.setNoDelay(true));
  let bodyTooLarge = false;
  outbound.on("error", (error) => {
    if (clientGone || ended || bodyTooLarge) return;
    if (answer) {
      // Mid-stream: cut the client too; res "close" reports the failure.
      upstreamBroke ??= error;
      res.destroy();
      return;
    }
    const failure = describe(error);
    upstreams.log(`proxy: ${label}: ${failure.detail}`);
    sendProxyError(res, flavor, {
      status: failure.timedOut ? 504 : 502,
      code: failure.timedOut ? "upstream_timeout" : "upstream_unreachable",
      message: `${failure.detail}. The request was not answered by the provider.`,
    });
    const unreached = failure.timedOut ? undefined : unreachedBy(error, target);
    end({ kind: "upstream_error", ...failure, ...(unreached === undefined ? {} : { unreached }) });
  });

  outbound.on("response", (incoming) => {
    answer = incoming;
    idle.refresh();
    incoming.on("error", (error) => {
      if (clientGone) return;
      upstreamBroke ??= error;
      res.destroy(); // the client must not take a truncated answer for a complete one
    });
    // Saturated, the answer goes out at the end of the loop's turn with the others (loop-pressure.ts);
    // a client gone meanwhile is seen by res "close", which cuts the upstream.
    if (input.pressure?.saturated()) atEndOfTurn(relay, incoming);
    else relay(incoming);
  });
  const relay = (incoming: IncomingMessage) => {
    if (res.destroyed) return;
    res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, responseHeaders(incoming));
    // An event stream's head goes out at once, so the client sees the stream open even if the
    // first event is slow; other answers send it with their first bytes (one packet less).
    if (String(incoming.headers["content-type"]).startsWith("text/event-stream")) res.flushHeaders();
    // pipe() rather than pipeline(): the same backpressure without an AbortController per
    // answer (measurable at thousands of requests a second); endings are handled here by hand.
    // Piped before it is observed: each chunk is on its way to the client before it is read.
    incoming.pipe(res);
    observe?.head(incoming);
    incoming.on("data", (chunk: Buffer) => {
      idle.refresh();
      observe?.chunk(chunk);
    });
    // A slow reader pauses the upstream through backpressure: that is the client's pace, not a
    // silent provider, so draining restarts the clock and a finished answer stops it.
    res.on("drain", () => idle.refresh());
    incoming.on("end", () => clearTimeout(idle));
  };

  // "close" fires once on every ending: after a full answer, when the client hangs up, or
  // when the response is torn down because upstream broke.
  res.on("close", () => {
    if (ended) return;
    const status = answer?.statusCode;
    if (res.writableFinished && answer && status !== undefined) {
      end({ kind: "completed", status, headers: answer.headers });
    } else if (upstreamBroke) {
      const failure = describe(upstreamBroke);
      upstreams.log(`proxy: ${label}: ${failure.detail} mid-response`);
      end({ kind: "upstream_error", ...failure, ...(status === undefined ? {} : { status }) });
    } else {
      clientGone = true;
      outbound.destroy();
      end({ kind: "client_gone", ...(answer && status !== undefined ? { status, headers: answer.headers } : {}) });
    }
  });

  // A client that stops sending is seen by res "close"; an upstream failure by outbound "error".
  if (body) {
    outbound.end(body);
    return;
  }
  // Counted as it streams: a pass-through body is never held here, and one past the cap is cut.
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_PROXY_BODY_BYTES || bodyTooLarge) return;
    bodyTooLarge = true;
    req.unpipe(outbound);
    outbound.destroy();
    if (answer) res.destroy();
    else refuseBody(req, res, flavor, { error: tooLargeError(), drain: true }, DEFAULT_BODY_TIMEOUT_MS);
  });
  req.pipe(outbound);
}
