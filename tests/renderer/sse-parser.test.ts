import { expect, test } from "vitest";
import { createSseParser, type SseMessage } from "../../renderer/bridge/sse-parser";

test("events split across chunks arrive whole, keepalive comments are skipped", () => {
  const messages: SseMessage[] = [];
  const parser = createSseParser((message) => messages.push(message));
  parser.push('event: status\ndata: {"providers":');
  parser.push('[]}\n\n: keepalive\n\nevent: routes\r\ndata: {"a":1}\r\n\r\n');
  expect(messages).toEqual([
    { event: "status", data: '{"providers":[]}' },
    { event: "routes", data: '{"a":1}' },
  ]);
});
