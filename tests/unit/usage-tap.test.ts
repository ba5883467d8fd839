import { expect, test } from "vitest";
import { UsageTap } from "../../electron/proxy/usage-tap";
import {
  anthropicJson,
  anthropicStream,
  geminiJsonArray,
  geminiSseStream,
  openAiChatJson,
  openAiChatStream,
  responsesStream,
} from "../fixtures/usage-streams";

function tapped(text: string, pieceSize = text.length) {
  const tap = new UsageTap();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += pieceSize) tap.feed(bytes.subarray(at, at + pieceSize));
  return tap.usage;
}

test("Anthropic: input and cache from message_start, the last cumulative output_tokens, not their sum", () => {
  expect(tapped(anthropicStream)).toEqual({ input: 25, output: 503, cacheRead: 30000, cacheWrite: 1200 });
});

test("non-streamed bodies are read too", () => {
  expect(tapped(anthropicJson)).toEqual({ input: 12, output: 7, cacheRead: 4, cacheWrite: 0 });
  expect(tapped(openAiChatJson)).toEqual({ input: 50, output: 5, cacheRead: 0, cacheWrite: 0 });
});

test("OpenAI chat: the final chunk's usage, input without cached tokens, output with reasoning", () => {
  expect(tapped(openAiChatStream)).toEqual({ input: 400, output: 300, cacheRead: 600, cacheWrite: 0 });
});

test("Responses: response.completed usage, even behind 200 kB of output in the same event", () => {
  expect(tapped(responsesStream)).toEqual({ input: 2000, output: 900, cacheRead: 6000, cacheWrite: 0 });
});

test("Gemini: the last chunk's usageMetadata, thoughts added to output, cached content taken out of input", () => {
  expect(tapped(geminiSseStream)).toEqual({ input: 300, output: 70, cacheRead: 100, cacheWrite: 0 });
  expect(tapped(geminiJsonArray)).toEqual({ input: 10, output: 4, cacheRead: 0, cacheWrite: 0 });
});

test("the same totals whatever the chunking, down to one byte at a time", () => {
  for (const [text, size] of [[anthropicStream, 1], [openAiChatStream, 3], [geminiSseStream, 7], [responsesStream, 4096]] as const) {
    expect(tapped(text, size)).toEqual(tapped(text));
  }
});

test("a response without usage reads as none", () => {
  expect(tapped('data: {"type":"ping"}\n\n{"usage": null}')).toBeUndefined();
});

test("malformed or oversized usage is skipped and the good usage after it still counts", () => {
  const broken = 'data: {"usage": {"output_tokens": 12,,}}\n\n';
  const huge = `data: {"usage": {"pad": "${"x".repeat(20_000)}", "output_tokens": 9}}\n\n`;
  const odd = 'data: {"usage": {"input_tokens": "ten", "output_tokens": -4}}\n\n';
  const good = 'data: {"type":"message_delta","usage":{"output_tokens":41}}\n\n';
  expect(tapped(broken + huge + odd + good)).toEqual({ input: 0, output: 41, cacheRead: 0, cacheWrite: 0 });
  expect(tapped(broken + huge)).toBeUndefined();
});
