// SPEC §6 "Errors inside a 200 stream": the bytes pass unchanged, the outcome is the error's.
import { afterEach, expect, test } from "vitest";
import { eventually } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, stream: true, messages: [{ role: "user", content: "hi" }] };
const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m1"}}\n\n';

test("Anthropic's mid-stream overloaded_error opens the route, split across chunks, bytes unchanged", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 5 } });
  const pieces = [start, 'event: error\ndata: {"type":"error","error":{"type":"overloa', 'ded_error","message":"Overloaded"}}\n\n'];
  h.fake.script({ status: 200, stream: pieces });
  const answer = await post(`${h.base}/v1/messages`, message);
  expect(answer.status).toBe(200);
  expect(answer.text).toBe(pieces.join(""));
  await eventually(async () =>
    expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "open", reason: expect.stringContaining("overloaded_error") }),
  );
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 0, paused: false });
});

test("an OpenAI chat chunk with rate_limit_exceeded counts as a 429: the provider pauses, the route stays closed", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "openai" });
  h.fake.script({
    status: 200,
    stream: ['data: {"choices":[{"delta":{"content":"h"}}]}\n\n', 'data: {"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}\n\n'],
  });
  const answer = await post(`${h.base}/v1/chat/completions`, { ...message, model: "gpt-test" });
  expect(answer.status).toBe(200);
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ paused: true, limit: 2 }));
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
});

test("a Responses stream ending in response.failed with server_error is a route failure", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai" });
  h.fake.script({
    status: 200,
    stream: ['event: response.failed\ndata: {"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"x"}}}\n\n'],
  });
  expect((await post(`${h.base}/v1/responses`, { ...message, model: "gpt-test" })).status).toBe(200);
  await eventually(async () =>
    expect((await h!.client.routes()).routes[0]).toMatchObject({ state: "open", reason: expect.stringContaining("server_error") }),
  );
});

test("any other error inside a stream is neutral, never a success", async () => {
  h = await startProxyHarness({ limit: 1 });
  await h.client.setRouteSettings({ threshold: 3 });
  h.fake.script(500);
  await post(`${h.base}/v1/messages`, message);
  expect((await h.client.routes()).routes[0]).toMatchObject({ consecutiveFailures: 1 });
  h.fake.script({ status: 200, stream: [start, 'event: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"x"}}\n\n'] });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0 }));
  // A success would have zeroed the count.
  expect((await h.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 1 });
});
