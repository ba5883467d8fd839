import { expect, test } from "vitest";
import { StreamErrorScanner } from "../../electron/proxy/stream-errors";

function scan(text: string, pieceSize: number) {
  const scanner = new StreamErrorScanner();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += pieceSize) scanner.feed(bytes.subarray(at, at + pieceSize));
  return scanner.error;
}

const delta = 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"an \\"error\\" in prose"}}\n\n';

const cases: [string, string, unknown][] = [
  [
    "Gemini chunk with RESOURCE_EXHAUSTED and a RetryInfo wait",
    'data: {"candidates":[{"content":{"parts":[{"text":"h"}]}}]}\r\n\r\ndata: {"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}\r\n\r\n',
    { kind: "rate_limited", type: "RESOURCE_EXHAUSTED", retryAfterMs: 1500 },
  ],
  ["Gemini chunk with UNAVAILABLE", 'data: {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}\n\n', { kind: "server", type: "UNAVAILABLE" }],
  ["Gemini chunk with INVALID_ARGUMENT", 'data: {"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}\n\n', { kind: "other", type: "INVALID_ARGUMENT" }],
  [
    "Anthropic event: error with overloaded_error",
    `${delta}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
    { kind: "server", type: "overloaded_error" },
  ],
  [
    "Anthropic rate_limit_error",
    'event: error\r\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\r\n\r\n',
    { kind: "rate_limited", type: "rate_limit_error" },
  ],
  [
    "OpenAI chat chunk carrying error",
    'data: {"id":"c1","choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"error":{"message":"x","type":"server_error","code":null}}\n\n',
    { kind: "server", type: "server_error" },
  ],
  [
    "Responses event: error with rate_limit_exceeded",
    'event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"x","param":null}\n\n',
    { kind: "rate_limited", type: "rate_limit_exceeded" },
  ],
  [
    "Responses response.failed",
    'event: response.failed\ndata: {"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"x"}}}\n\n',
    { kind: "server", type: "server_error" },
  ],
  [
    "an error of the request's own making",
    'event: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"bad"}}\n\n',
    { kind: "other", type: "invalid_request_error" },
  ],
  [
    "a clean Responses stream (error: null in response.completed)",
    'event: response.completed\ndata: {"type":"response.completed","response":{"id":"r","status":"completed","error":null}}\n\n',
    undefined,
  ],
  ["a clean Anthropic stream mentioning errors in its text", `${delta}event: message_stop\ndata: {"type":"message_stop"}\n\n`, undefined],
];

test.each(cases)("%s is read the same whether it arrives whole or byte by byte", (_name, text, expected) => {
  for (const size of [1, 3, 7, 64, 100_000]) expect(scan(text, size), `pieces of ${size}`).toEqual(expected);
});

test("a huge content line is skipped without being held, and an error after it is still seen", () => {
  const scanner = new StreamErrorScanner();
  scanner.feed(Buffer.from(`data: {"text":"${"x".repeat(200_000)}`));
  scanner.feed(Buffer.from(`"}\n\nevent: error\ndata: {"type":"error","error":{"type":"api_error","message":"x"}}\n\n`));
  expect(scanner.error).toEqual({ kind: "server", type: "api_error" });
});

function scanGoogle(text: string, pieceSize: number, framing: "sse" | "json") {
  const heard: unknown[] = [];
  const scanner = new StreamErrorScanner((data) => heard.push(data), { google: true });
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += pieceSize) scanner.feed(bytes.subarray(at, at + pieceSize), framing);
  return { error: scanner.error, heard };
}

const quota = {
  error: {
    code: 429,
    message: "Quota exceeded — réessayez", // a non-ASCII message split across chunks must not spoil the parse
    status: "RESOURCE_EXHAUSTED",
    details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" }],
  },
};
const candidate = (text: string) => ({ candidates: [{ content: { parts: [{ text }] } }] });

test("Google's JSON array stream (no alt=sse): a pretty-printed error element is read at any chunking", () => {
  const text = `[${JSON.stringify(candidate("an \"error\": {\"code\": 1} in prose"), null, 2)}\n,\r\n${JSON.stringify(quota, null, 2)}\n]`;
  for (const size of [1, 5, 64, 100_000]) {
    const { error, heard } = scanGoogle(text, size, "json");
    expect(error, `pieces of ${size}`).toEqual({ kind: "rate_limited", type: "RESOURCE_EXHAUSTED", retryAfterMs: 3000 });
    // The windows observer hears it once, in the body's own shape (a per-day QuotaFailure is a window).
    expect(heard).toEqual([quota]);
  }
});

test("a pretty-printed Google error written into an event stream outside any data: line is read", () => {
  const text = `data: ${JSON.stringify(candidate("h"))}\r\n\r\n${JSON.stringify({ error: { code: 503, message: "busy", status: "UNAVAILABLE" } }, null, 2)}\n`;
  expect(scanGoogle(text, 7, "sse").error).toEqual({ kind: "server", type: "UNAVAILABLE" });
});

test("in a Gemini answer, an `error` object without Google's code and status is content, not an error", () => {
  const toolCall = { candidates: [{ content: { parts: [{ functionCall: { name: "report", args: { error: { code: 500 } } } }] } }] };
  expect(scanGoogle(`[${JSON.stringify(toolCall, null, 2)}]`, 3, "json").error).toBeUndefined();
  // Other providers' answers are never read as JSON: the Google tap is Gemini's alone.
  const plain = new StreamErrorScanner();
  plain.feed(Buffer.from(JSON.stringify([quota])), "json");
  expect(plain.error).toBeUndefined();
});
