// What the fake provider says: Anthropic- and OpenAI-shaped answers, errors and streams,
// close enough to the real wire formats that SDK-style clients and the proxy see the real thing.
import type { ServerResponse } from "node:http";
import { Readable, pipeline } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { geminiBody, geminiEvents, googleErrorBody } from "./fake-gemini";
import { responsesBody, responsesEvents } from "./fake-openai-responses";

/** Whose error format a request gets. */
export type Dialect = "anthropic" | "openai" | "google";
/** Which generation endpoint: Anthropic messages, OpenAI chat completions, OpenAI responses, Gemini's generateContent (streamed or not). */
export type Endpoint = "messages" | "chat" | "responses" | "gemini" | "gemini-stream";

export const dialectOf = (endpoint: Endpoint): Dialect =>
  endpoint === "messages" ? "anthropic" : endpoint === "gemini" || endpoint === "gemini-stream" ? "google" : "openai";

const WORDS = ["Headroom ", "keeps ", "agents ", "inside ", "the ", "limit. "];

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

const ANTHROPIC_ERROR: Record<number, string> = { 429: "rate_limit_error", 529: "overloaded_error", 500: "api_error" };

export function errorBody(dialect: Dialect, status: number, message: string, retryAfterSeconds?: number): unknown {
  if (dialect === "google") return googleErrorBody(status, message, retryAfterSeconds === undefined ? undefined : `${retryAfterSeconds}s`);
  if (dialect === "anthropic") {
    return { type: "error", error: { type: ANTHROPIC_ERROR[status] ?? "api_error", message } };
  }
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, param: null, code: type } };
}

const wordsOf = (events: number) => Array.from({ length: events }, (_, i) => WORDS[i % WORDS.length]!);

export function completeBody(endpoint: Endpoint, model: string, events: number): unknown {
  if (endpoint === "responses") return responsesBody(model, wordsOf(events));
  if (endpoint === "gemini" || endpoint === "gemini-stream") return geminiBody(model, wordsOf(events));
  const text = wordsOf(events).join("");
  if (endpoint === "messages") {
    return {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: events },
    };
  }
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: events, total_tokens: 10 + events },
  };
}

function anthropicEvents(model: string, events: number): string[] {
  const sse = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    sse("message_start", {
      type: "message_start",
      message: { id: "msg_fake", type: "message", role: "assistant", model, content: [], usage: { input_tokens: 10, output_tokens: 0 } },
    }),
    sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...Array.from({ length: events }, (_, i) =>
      sse("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: WORDS[i % WORDS.length] },
      }),
    ),
    sse("content_block_stop", { type: "content_block_stop", index: 0 }),
    sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: events } }),
    sse("message_stop", { type: "message_stop" }),
  ];
}

function openaiEvents(model: string, events: number): string[] {
  const data = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    data({ role: "assistant", content: "" }, null),
    ...Array.from({ length: events }, (_, i) => data({ content: WORDS[i % WORDS.length] }, null)),
    data({}, "stop"),
    "data: [DONE]\n\n",
  ];
}

/** Writes each event as it "happens", `delayMs` apart; stops quietly if the client leaves. */
export async function streamEvents(res: ServerResponse, endpoint: Endpoint, model: string, events: number, delayMs: number): Promise<void> {
  const frames =
    endpoint === "messages"
      ? anthropicEvents(model, events)
      : endpoint === "chat"
        ? openaiEvents(model, events)
        : endpoint === "gemini-stream" || endpoint === "gemini"
          ? geminiEvents(model, wordsOf(events))
          : responsesEvents(model, wordsOf(events));
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [i, frame] of frames.entries()) {
    if (res.destroyed) return;
    if (i > 0 && delayMs > 0) await sleep(delayMs);
    if (res.destroyed) return;
    res.write(frame);
  }
  res.end();
}

const BULK_CHUNK = Buffer.alloc(64 * 1024, "x");

/** `bytes` of payload in 64 KiB chunks with backpressure: the bench's big streamed answer. */
export function streamBytes(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  function* chunks() {
    for (let left = bytes; left > 0; left -= BULK_CHUNK.length) {
      yield left >= BULK_CHUNK.length ? BULK_CHUNK : BULK_CHUNK.subarray(0, left);
    }
  }
  pipeline(Readable.from(chunks(), { objectMode: false }), res, () => {
    // A client that leaves early ends the stream; nothing else to do.
  });
}
