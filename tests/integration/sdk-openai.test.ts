// The official OpenAI SDK, unchanged, through the real proxy against the fake provider: chat
// completions and the Responses API (Codex's), plain and streamed, its retries and its errors.
import OpenAI from "openai";
import { afterEach, expect, test } from "vitest";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIVE_WORDS = "Headroom keeps agents inside the ";
const DELTAS = ["Headroom ", "keeps ", "agents ", "inside ", "the "];
const chat = { model: "gpt-test", messages: [{ role: "user" as const, content: "hi" }] };
const respond = { model: "gpt-test", input: "hi" };

async function openaiProxy(limit = 2) {
  h = await startProxyHarness({ limit, providerId: "openai", fake: { eventDelayMs: 5 } });
  return { h, client: new OpenAI({ baseURL: `${h.base}/v1`, apiKey: "sk-test", maxRetries: 2 }) };
}

test("chat completions, plain and streamed, arrive with the provider's exact text", async () => {
  const { h, client } = await openaiProxy();
  const completion = await client.chat.completions.create(chat);
  expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: FIVE_WORDS });
  expect(h.fake.stats.lastHeaders?.authorization).toBe("Bearer sk-test");

  const stream = await client.chat.completions.create({ ...chat, stream: true });
  const deltas: string[] = [];
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta.content;
    if (content) deltas.push(content);
  }
  expect(deltas).toEqual(DELTAS);
  expect((await h.client.status()).providers[0]).toMatchObject({ providerId: "openai", active: 0 });
});

test("the Responses API, plain and streamed, arrives with the provider's exact text and usage", async () => {
  const { h, client } = await openaiProxy();
  const response = await client.responses.create(respond);
  expect(response.status).toBe("completed");
  expect(response.output_text).toBe(FIVE_WORDS);

  const stream = client.responses.stream(respond);
  const deltas: string[] = [];
  stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
  const final = await stream.finalResponse();
  expect(deltas).toEqual(DELTAS);
  expect(final.output_text).toBe(FIVE_WORDS);
  expect(final.usage).toMatchObject({ output_tokens: 5 });
  expect(h.fake.stats.lastPath).toBe("/v1/responses");
  expect(h.fake.stats.generations).toBe(2); // both were gated generations, not pass-throughs
});

test("a 429 in OpenAI's format pauses the provider once, and the SDK's retry succeeds", async () => {
  const { h, client } = await openaiProxy(4);
  h.fake.script({ status: 429, headers: { "retry-after": "1" } });
  const completion = await client.chat.completions.create(chat);
  expect(completion.choices[0]?.message.content).toBe(FIVE_WORDS);
  expect(h.fake.stats).toMatchObject({ generations: 2, rateLimited: 1 });
  expect((await h.client.status()).providers[0]).toMatchObject({ limit: 3, autoReduced: true, autoReducedFrom: 4 });
});

test("a 500 opens the route, and the SDK parses the proxy's 503 in OpenAI's error format", async () => {
  const { h } = await openaiProxy();
  const client = new OpenAI({ baseURL: `${h.base}/v1`, apiKey: "sk-test", maxRetries: 0 });
  h.fake.script(500);
  const failed = await client.responses.create(respond).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
  expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(500);

  const refused = await client.responses.create(respond).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(OpenAI.InternalServerError);
  const error = refused as InstanceType<typeof OpenAI.APIError>;
  expect(error.status).toBe(503);
  expect(error.code).toBe("route_open");
  expect(error.type).toBe("server_error");
  expect(error.message).toContain("circuit breaker");
  expect(h.fake.stats.generations).toBe(1);
});
