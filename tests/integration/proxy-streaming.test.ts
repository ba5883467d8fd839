import { afterEach, expect, test } from "vitest";
import { openRequest, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test("the first streamed event reaches the client while the upstream is still answering", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 10, eventDelayMs: 200 } });
  const response = await fetch(`${h.base}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-test" },
    body: JSON.stringify({ model: "claude-test", stream: true, messages: [] }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain("event: message_start");
  // The upstream is still answering (its 10 events take 2 s): the first one was not held back.
  expect(h.fake.stats.inFlight).toBe(1);

  let rest = first;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
  expect(rest.match(/event: content_block_delta/g)).toHaveLength(10);
  expect(rest).toContain("event: message_stop");
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0 });
  expect((await h.client.routes()).routes).toEqual([
    expect.objectContaining({ targetId: "anthropic", runtimeId: "http", modelId: "claude-test", state: "closed" }),
  ]);
});

test("OpenAI-style streams pass through event by event up to [DONE]", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai", fake: { events: 3, eventDelayMs: 100 } });
  const opened = openRequest(`${h.base}/v1/chat/completions`, { model: "gpt-test", stream: true, messages: [] });
  const res = await opened.response;
  const arrivals: number[] = [];
  let text = "";
  for await (const chunk of res) {
    arrivals.push(Date.now());
    text += String(chunk);
  }
  expect(text.trim().endsWith("data: [DONE]")).toBe(true);
  expect(text.match(/^data: /gm)).toHaveLength(6);
  // Events arrived spread over time, not in one buffered lump at the end.
  expect(arrivals.length).toBeGreaterThanOrEqual(4);
  expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(250);
});
