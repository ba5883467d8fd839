// WebSockets on generation paths (SPEC §6 "WebSocket", Codex's Responses transport): the
// upgrade waits for a slot like any gated request, then the proxy ends the WebSocket on both
// sides (ws) and relays every message unchanged. The connection is the lease: the slot is
// held while it lives, and a connection silent both ways for the idle time is closed.
import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer } from "ws";
import type { HeadroomService } from "../service/headroom-service";
import { ServiceError } from "../service/service-error";
import { ErrorAnswer } from "./error-answer";
import { requestHeaders, responseHeaders } from "./forward-headers";
import { requestAgent } from "./request-agent";
import type { Upstreams } from "./forward";
import { openGate, type GateStart } from "./gate-start";
import { errorBody, type ErrorFlavor, type ProxyError } from "./proxy-errors";
import { messageVerdict, verdictOf, type Verdict } from "./upstream-verdict";
import { mayCarryWindows, usedUpError, WindowObserver } from "./window-observer";
import { relayMessages } from "./websocket-relay";
import { WebSocketUsage } from "./websocket-usage";
import type { AgentIdentity } from "../agents/agent-identity";
import { noteIfLoop } from "./upstream-notes";
import { unreachedBy } from "./unreached";

export const DEFAULT_WEBSOCKET_IDLE_MS = 60_000;
/** An upstream's refusal of the upgrade is passed on; its body is an error message, never large. */
const MAX_REFUSAL_BODY = 64 * 1024;
const HANDSHAKE_HEADERS = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol"];

export interface TunnelInput {
  service: HeadroomService;
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  providerId: string;
  target: URL;
  flavor: ErrorFlavor;
  timeoutMs: number;
  rideOn?: string;
}

function writeHead(socket: Duplex, status: number, headers: OutgoingHttpHeaders, body: Buffer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  lines.push(`content-length: ${body.length}`, "connection: close", "", "");
  socket.end(Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]));
}

/** Raw headers (name, value, name, value...) as an object, without `skip` (lower-case names). */
function headerObject(raw: string[], skip: string[]): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (skip.includes(name)) continue;
    const value = raw[i + 1]!;
    const seen = out[name];
    out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}

/** Close codes that may be sent on (1005 and 1006 only describe a close, they are never sent). */
const sendable = (code: number) => (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
const NORMAL_CLOSES = new Set([1000, 1001, 1005]);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createWebSocketGate(upstreams: Upstreams, idleMs: number) {
  const server = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const live = new Set<{ client?: WebSocket; upstream: WebSocket }>();

  function refuse(socket: Duplex, flavor: ErrorFlavor, error: ProxyError): void {
    const text = JSON.stringify(errorBody(flavor, error.status, error.code, `Headroom: ${error.message}`, error.retryAfterS, error.extra));
    writeHead(
      socket,
      error.status,
      {
        "content-type": "application/json",
        "x-headroom-error": error.code,
        ...(error.retryAfterS === undefined ? {} : { "retry-after": String(error.retryAfterS) }),
      },
      Buffer.from(text),
    );
  }

  async function tunnel(input: TunnelInput): Promise<void> {
    const { service, socket, providerId, flavor } = input;
    // The model is inside the messages, not the upgrade: the route is the provider's "unknown" one.
    const leaving = () => {
      const controller = new AbortController();
      const onLeave = () => controller.abort();
      socket.once("close", onLeave);
      if (socket.destroyed) controller.abort();
      return { signal: controller.signal, stop: () => socket.off("close", onLeave) };
    };
    const usedUp = service.windowRefusal(providerId);
    if (usedUp) {
      service.stopped(providerId, usedUp.kind, await requestAgent(service, input.req, input.rideOn), input.rideOn);
      return refuse(socket, flavor, usedUpError(usedUp, flavor, service.clock.now()));
    }
    let start: GateStart;
    let agent: AgentIdentity;
    try {
      agent = await requestAgent(service, input.req, input.rideOn);
      start = await openGate(service, {
        providerId,
        modelId: "unknown",
        agent,
        leaving,
        ...(input.rideOn === undefined ? {} : { rideOn: input.rideOn }),
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const unknown = error.code === "unknown_provider";
      return refuse(socket, flavor, { status: unknown ? 404 : 503, code: unknown ? "unknown_provider" : "unavailable", message: error.message });
    }
    if (start.kind === "gone") return;
    if (start.kind === "refused") {
      const { block } = start;
      const retryAfterS = block.kind === "open" ? Math.max(1, Math.ceil(block.remainingMs / 1000)) : 1;
      return refuse(socket, flavor, {
        status: 503,
        code: block.kind === "open" ? "route_open" : "route_probing",
        message: `route ${providerId} / http / unknown is ${block.kind === "open" ? "paused by its circuit breaker" : "being probed"}; retry in ${retryAfterS} s.`,
        retryAfterS,
      });
    }
    const { end } = start;
    if (socket.destroyed) return end.cancel();
    const settle = (verdict: Verdict) => end.finish(verdict);

    const upstream = { host: input.target.host, format: flavor };
    const usage = new WebSocketUsage((answer) => service.countAnswer({ providerId, agent, upstream, ...answer }));
    await new Promise<void>((resolve) => {
      let settled = false;
      const finish = (verdict: Verdict) => {
        if (settled) return;
        settled = true;
        live.delete(pair);
        settle(verdict);
        usage.closed(verdict.lease);
        resolve();
      };
      const headers = headerObject(requestHeaders(input.req, input.target, upstreams.hopId), HANDSHAKE_HEADERS);
      const protocols = (input.req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "");
      const url = new URL(input.target);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      const upstream = new WebSocket(url, protocols, { headers, handshakeTimeout: input.timeoutMs, perMessageDeflate: false });
      const pair: { client?: WebSocket; upstream: WebSocket } = { upstream };
      // On this transport headers come once, at the upgrade; readings then come as messages.
      const windows = new WindowObserver(service, providerId);
      upstream.on("upgrade", (response: IncomingMessage) => windows.head(response.statusCode ?? 101, response.headers));
      live.add(pair);
      socket.once("close", () => {
        if (pair.client) return;
        upstream.terminate();
        finish({ lease: "abandoned", route: "release" });
      });

      upstream.on("unexpected-response", (request, response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_REFUSAL_BODY) chunks.push(chunk);
        });
        response.on("end", () => {
          const status = response.statusCode ?? 502;
          noteIfLoop(service, providerId, status, response.headers);
          windows.head(status, response.headers);
          const refusal = new ErrorAnswer(response.headers["content-encoding"]);
          for (const chunk of chunks) refusal.add(chunk);
          windows.end(refusal.text());
          const passed = headerObject(responseHeaders(response), ["content-length"]);
          writeHead(socket, status, passed, Buffer.concat(chunks));
          request.destroy();
          finish(verdictOf({ kind: "completed", status, headers: response.headers }, service.clock.now()));
        });
      });
      upstream.on("error", (error) => {
        if (pair.client) return; // after the handshake, "close" reports it
        const timedOut = /timed out/i.test(error.message);
        const unreached = timedOut ? undefined : unreachedBy(error, input.target);
        if (unreached !== undefined) service.noteUpstreamFailure(providerId, unreached);
        refuse(socket, flavor, {
          status: timedOut ? 504 : 502,
          code: timedOut ? "upstream_timeout" : "upstream_unreachable",
          message: `the upstream WebSocket could not be opened (${error.message}).`,
        });
        finish({ lease: "failure", route: "failure", reason: timedOut ? "timeout" : `upstream WebSocket failed (${error.message})` });
      });

      upstream.on("open", () => {
        if (socket.destroyed) {
          upstream.terminate();
          return finish({ lease: "abandoned", route: "release" });
        }
        server.handleUpgrade(input.req, socket, input.head, (client) => {
          pair.client = client;
          const idle = setTimeout(() => {
            client.close(1000, "idle");
            upstream.close(1000, "idle");
          }, idleMs);
          const closeOther = (other: WebSocket, code: number, reason: Buffer) => {
            if (other.readyState === WebSocket.CLOSED) return;
            if (sendable(code)) other.close(code, reason);
            else if (code === 1005) other.close(1000);
            else other.terminate();
          };
          relayMessages(client, upstream, () => idle.refresh());
          relayMessages(upstream, client, (data, isBinary) => {
            idle.refresh();
            if (isBinary) return;
            const text = data.toString();
            if (mayCarryWindows(text)) windows.event(parsed(text));
            // In-band (SPEC §6): an error message counts the moment it passes; the close adds nothing.
            const verdict = messageVerdict(text, service.clock.now());
            if (verdict) end.applyNow(verdict);
            usage.message(text, verdict?.lease);
          });
          client.on("close", (code, reason) => {
            clearTimeout(idle);
            closeOther(upstream, code, reason);
            finish(NORMAL_CLOSES.has(code) ? { lease: "success", route: "success" } : { lease: "abandoned", route: "release" });
          });
          upstream.on("close", (code, reason) => {
            clearTimeout(idle);
            closeOther(client, code, reason);
            finish(
              NORMAL_CLOSES.has(code)
                ? { lease: "success", route: "success" }
                : { lease: "failure", route: "failure", reason: `upstream WebSocket closed with ${code}` },
            );
          });
          client.on("error", () => client.terminate());
        });
      });
    });
  }

  return {
    refuse,
    tunnel,
    /** Cuts every tunnel; each settles its slot as its sockets close. */
    close() {
      for (const { client, upstream } of live) {
        client?.terminate();
        upstream.terminate();
      }
      server.close();
    },
  };
}
