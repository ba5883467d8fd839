// A fake LLM provider on a real 127.0.0.1 socket: the upstream of the proxy tests, the demo
// and the bench. It behaves like a provider under pressure: a concurrency cap answered with
// 429 + retry-after, scripted failures (529, 500...), slow first bytes, streamed answers, and
// a usage endpoint reporting how many sessions it is serving.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocketServer } from "ws";
import { geminiModelOf } from "./fake-gemini";
import { responsesMessages } from "./fake-openai-responses";
import { completeBody, dialectOf, errorBody, sendJson, streamBytes, streamEvents, type Dialect, type Endpoint } from "./fake-responses";

const BODIES_KEPT = 200;

export interface FakeProviderOptions {
  /** Generation requests served at once; one more is answered 429. Default: no cap. */
  cap: number;
  /** retry-after (seconds) on the cap's 429s. */
  retryAfterSeconds: number;
  /** Text deltas per answer, and the pause between streamed events. */
  events: number;
  eventDelayMs: number;
  /** Wait before the status line of every generation answer. */
  firstByteDelayMs: number;
  /**
   * Generation requests allowed per minute, told in each answer's rate-limit headers
   * (Anthropic's on /v1/messages, OpenAI's otherwise) and answered 429 past it. 0 = no budget, no headers.
   */
  requestsPerMinute: number;
  /**
   * A Claude-plan 5-hour window in fast motion, told in Anthropic's unified headers on
   * /v1/messages: it fills over `fillMs`, is used up (429, `unified-status: rejected`) for
   * `resetMs`, then resets and fills again. Undefined = no plan window.
   */
  planWindow: { fillMs: number; resetMs: number } | undefined;
}

/** One scripted answer to the next generation request: a status, optional headers and body. */
interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Defaults to the dialect's error body for the status. */
  body?: unknown;
  /** Start a 200 event stream, then drop the connection mid-answer (a crashed upstream). */
  cutMidStream?: boolean;
  /** Accept the request and never answer (a hung upstream). */
  hang?: boolean;
  /** A 200 event stream of exactly these pieces, each written separately, then ended. */
  stream?: string[];
  /** After the stream's pieces, stay open and silent instead of ending. */
  stallAfterStream?: boolean;
  /** Write the stream's pieces up to this index (exclusive), then the rest once `until` settles: an answer held mid-stream. */
  holdAt?: { index: number; until: Promise<unknown> };
  /** Answer only once this settles: a test lets a whole burst arrive before any answer. */
  after?: Promise<unknown>;
}

/** A fixed concurrent_sessions, "live" (the real in-flight count), or a broken endpoint. */
type UsageMode = number | "live" | "error" | "hang";

interface FakeProviderStats {
  /** Every request, generation or not. */
  requests: number;
  generations: number;
  inFlight: number;
  maxConcurrent: number;
  rateLimited: number;
  lastHeaders?: IncomingHttpHeaders;
  lastPath?: string;
  /** Every request's path and query as received, oldest first. */
  paths: string[];
  /** WebSocket connections open now (Responses over WebSocket, as Codex uses it). */
  openWebSockets: number;
  /** The last BODIES_KEPT generation request bodies, oldest first (what a resumed agent sent again). */
  bodies: Record<string, unknown>[];
}

export interface FakeProvider {
  url: string;
  stats: FakeProviderStats;
  script(...answers: (number | ScriptedAnswer)[]): void;
  configure(options: Partial<FakeProviderOptions>): void;
  setUsage(mode: UsageMode): void;
  resetStats(): void;
  close(): Promise<void>;
}

// `/responses` at the root is Codex on a ChatGPT login (its base URL ends in /backend-api/codex).
const GENERATION: Record<string, Endpoint> = {
  "/v1/messages": "messages",
  "/v1/chat/completions": "chat",
  "/v1/responses": "responses",
  "/responses": "responses",
};
// Lenient as Google's router: any case, escapes decoded, a trailing slash ignored.
const GEMINI_GENERATION = /^\/v1(beta)?\/models\/[^/]+:(stream)?generatecontent\/?$/i;

function endpointOf(path: string): Endpoint | undefined {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a broken escape: no Gemini endpoint
  }
  const gemini = GEMINI_GENERATION.exec(decoded);
  if (gemini) return gemini[2] ? "gemini-stream" : "gemini";
  return GENERATION[path];
}

function freshStats(): FakeProviderStats {
  return { requests: 0, generations: 0, inFlight: 0, maxConcurrent: 0, rateLimited: 0, paths: [], openWebSockets: 0, bodies: [] };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function startFakeProvider(initial: Partial<FakeProviderOptions> = {}): Promise<FakeProvider> {
  const options: FakeProviderOptions = {
    cap: Number.POSITIVE_INFINITY,
    retryAfterSeconds: 1,
    events: 5,
    eventDelayMs: 20,
    firstByteDelayMs: 0,
    requestsPerMinute: 0,
    planWindow: undefined,
    ...initial,
  };
  const budget = { windowStart: 0, used: 0 };
  let planStart = 0;

  /** Sets this answer's unified plan-window headers; true while the window is used up. */
  function planWindow(res: ServerResponse, dialect: Dialect): boolean {
    const plan = options.planWindow;
    if (!plan || dialect !== "anthropic") return false;
    const now = Date.now();
    const cycle = plan.fillMs + plan.resetMs;
    if (planStart === 0 || now - planStart >= cycle) planStart = now;
    const used = Math.min(1, (now - planStart) / plan.fillMs);
    const status = used >= 1 ? "rejected" : used >= 0.8 ? "allowed_warning" : "allowed";
    const resetS = String(Math.ceil((planStart + cycle) / 1000));
    res.setHeader("anthropic-ratelimit-unified-status", status);
    res.setHeader("anthropic-ratelimit-unified-reset", resetS);
    res.setHeader("anthropic-ratelimit-unified-representative-claim", "five_hour");
    res.setHeader("anthropic-ratelimit-unified-5h-status", status);
    res.setHeader("anthropic-ratelimit-unified-5h-utilization", used.toFixed(3));
    res.setHeader("anthropic-ratelimit-unified-5h-reset", resetS);
    res.setHeader("anthropic-ratelimit-unified-overage-status", "rejected");
    return used >= 1;
  }

  /** Sets this answer's rate-limit headers; true when the minute's budget is already spent. */
  function spendBudget(res: ServerResponse, dialect: Dialect): boolean {
    const limit = options.requestsPerMinute;
    if (limit <= 0) return false;
    const now = Date.now();
    if (now - budget.windowStart >= 60_000) Object.assign(budget, { windowStart: now, used: 0 });
    budget.used++;
    const remaining = Math.max(0, limit - budget.used);
    const resetAt = budget.windowStart + 60_000;
    if (dialect === "anthropic") {
      res.setHeader("anthropic-ratelimit-requests-limit", String(limit));
      res.setHeader("anthropic-ratelimit-requests-remaining", String(remaining));
      res.setHeader("anthropic-ratelimit-requests-reset", new Date(resetAt).toISOString());
    } else {
      res.setHeader("x-ratelimit-limit-requests", String(limit));
      res.setHeader("x-ratelimit-remaining-requests", String(remaining));
      res.setHeader("x-ratelimit-reset-requests", `${Math.ceil((resetAt - now) / 1000)}s`);
    }
    return budget.used > limit;
  }
  const queue: ScriptedAnswer[] = [];
  let usage: UsageMode = "live";
  const fake = { stats: freshStats() };

  async function generate(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint): Promise<void> {
    const dialect = dialectOf(endpoint);
    const stats = fake.stats;
    stats.generations++;
    stats.inFlight++;
    stats.maxConcurrent = Math.max(stats.maxConcurrent, stats.inFlight);
    // Read at close time: resetStats() may have swapped the object since.
    res.once("close", () => fake.stats.inFlight--);
    const body = await readJson(req);
    fake.stats.bodies.push(body);
    // The demo runs for hours: keep what a test reads, not every body since the start.
    if (fake.stats.bodies.length > BODIES_KEPT) fake.stats.bodies.shift();
    const model = dialect === "google" ? geminiModelOf(req.url ?? "") : typeof body.model === "string" ? body.model : "fake-model";
    if (options.firstByteDelayMs > 0) await sleep(options.firstByteDelayMs);
    if (res.destroyed) return;

    const scripted = queue.shift();
    if (scripted?.after) await scripted.after;
    if (res.destroyed || scripted?.hang) return;
    if (scripted?.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", ...scripted.headers });
      for (const [index, piece] of scripted.stream.entries()) {
        if (scripted.holdAt?.index === index) await scripted.holdAt.until;
        res.write(piece);
        await sleep(options.eventDelayMs);
      }
      if (!scripted.stallAfterStream) res.end();
      return;
    }
    if (scripted?.cutMidStream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: ping\ndata: {}\n\n");
      setTimeout(() => res.socket?.destroy(), options.eventDelayMs);
      return;
    }
    if (scripted) {
      if (scripted.status === 429) fake.stats.rateLimited++;
      const message = `scripted ${scripted.status} from the fake provider`;
      sendJson(res, scripted.status, scripted.body ?? errorBody(dialect, scripted.status, message), scripted.headers);
      return;
    }
    if (planWindow(res, dialect)) {
      fake.stats.rateLimited++;
      sendJson(res, 429, errorBody(dialect, 429, "You've hit your limit · the fake 5-hour window resets soon"));
      return;
    }
    if (spendBudget(res, dialect)) {
      fake.stats.rateLimited++;
      const message = `the fake provider allows ${options.requestsPerMinute} requests a minute`;
      sendJson(res, 429, errorBody(dialect, 429, message), { "retry-after": String(Math.ceil((budget.windowStart + 60_000 - Date.now()) / 1000)) });
      return;
    }
    if (fake.stats.inFlight > options.cap) {
      fake.stats.rateLimited++;
      const message = `the fake provider allows ${options.cap} concurrent requests`;
      sendJson(res, 429, errorBody(dialect, 429, message, options.retryAfterSeconds), { "retry-after": String(options.retryAfterSeconds) });
      return;
    }
    if (typeof body.fake_stream_bytes === "number") return streamBytes(res, body.fake_stream_bytes);
    if (body.stream === true || endpoint === "gemini-stream") return streamEvents(res, endpoint, model, options.events, options.eventDelayMs);
    const thinking = options.events * options.eventDelayMs;
    if (thinking > 0) await sleep(thinking); // no timer at all when 0: the bench measures the proxy, not a tick
    sendJson(res, 200, completeBody(endpoint, model, options.events));
  }

  function usageAnswer(res: ServerResponse): void {
    if (usage === "hang") return; // answered never; the socket is cut by close()
    if (usage === "error") return sendJson(res, 500, { error: "usage is unavailable" });
    sendJson(res, 200, { concurrent_sessions: usage === "live" ? fake.stats.inFlight : usage });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    fake.stats.requests++;
    fake.stats.lastHeaders = req.headers;
    fake.stats.lastPath = req.url ?? "/";
    fake.stats.paths.push(req.url ?? "/");
    const endpoint = endpointOf(path);
    if (req.method === "POST" && endpoint) {
      generate(req, res, endpoint).catch(() => res.destroy());
    } else if (req.method === "GET" && path === "/usage") {
      usageAnswer(res);
    } else if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { data: [{ id: "fake-claude", type: "model" }, { id: "fake-gpt", object: "model" }] });
    } else {
      // Read the whole body first, as a real endpoint would, so a large upload really crosses the proxy.
      req.resume();
      req.on("end", () => sendJson(res, 404, errorBody("openai", 404, `no fake endpoint ${req.method} ${path}`)));
    }
  });
  // WebSocket on /v1/responses: a `response.create` is answered with the response's events, as
  // Codex's transport is; "error429" answers an error event with status 429, "close" closes
  // normally, anything else is echoed. A scripted answer refuses the upgrade with its status.
  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    fake.stats.requests++;
    fake.stats.lastHeaders = req.headers;
    fake.stats.paths.push(req.url ?? "/");
    const refusal = queue.shift();
    if (refusal) {
      const text = JSON.stringify(refusal.body ?? errorBody("openai", refusal.status, `scripted ${refusal.status}`));
      const extra = Object.entries(refusal.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join("");
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}connection: close\r\n\r\n${text}`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      fake.stats.openWebSockets++;
      ws.on("close", () => fake.stats.openWebSockets--);
      ws.on("message", (data, isBinary) => {
        const text = isBinary ? "" : data.toString();
        if (text === "error429") {
          ws.send(JSON.stringify({ type: "error", status: 429, error: { type: "rate_limit_exceeded", message: "slow down" } }));
        } else if (text === "close") ws.close(1000, "done");
        else if (text.startsWith('{"type":"response.create"')) {
          const { model } = JSON.parse(text) as { model?: string };
          for (const message of responsesMessages(model ?? "fake-gpt", ["Hello", " from", " the", " socket"])) ws.send(message);
        }
        else ws.send(data, { binary: isBinary });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get stats() {
      return fake.stats;
    },
    script: (...answers) => queue.push(...answers.map((a) => (typeof a === "number" ? { status: a } : a))),
    configure: (patch) => Object.assign(options, patch),
    setUsage: (mode) => {
      usage = mode;
    },
    resetStats: () => {
      fake.stats = { ...freshStats(), inFlight: fake.stats.inFlight };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets.clients) ws.terminate();
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
