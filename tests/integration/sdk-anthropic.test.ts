// The official Anthropic SDK, unchanged, through the real proxy against the fake provider:
// what an agent built on it sees (exact content, streams intact, the limit held, its own
// retries honoured, its parsed errors) and what Headroom records meanwhile.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, expect, test } from "vitest";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { eventually } from "../support/test-host";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIVE_WORDS = "Headroom keeps agents inside the ";
const ask = { model: "claude-test", max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };

function sdk(base: string, maxRetries = 2) {
  return new Anthropic({ baseURL: base, apiKey: "sk-ant-test", maxRetries });
}

test("a message and a streamed message arrive with the provider's exact text, credential untouched", async () => {
  h = await startProxyHarness({ limit: 2, fake: { eventDelayMs: 5 } });
  const client = sdk(h.base);

  const message = await client.messages.create(ask);
  expect(message.content).toEqual([{ type: "text", text: FIVE_WORDS }]);
  expect(message.stop_reason).toBe("end_turn");
  expect(h.fake.stats.lastHeaders?.authorization).toBe("Bearer sk-ant-test");

  const stream = client.messages.stream(ask);
  const deltas: string[] = [];
  stream.on("text", (text) => deltas.push(text));
  expect(await stream.finalText()).toBe(FIVE_WORDS);
  expect(deltas).toEqual(["Headroom ", "keeps ", "agents ", "inside ", "the "]);

  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({ active: 0, queued: 0, paused: false });
});

test("20 concurrent SDK calls at limit 3 never put more than 3 on the provider, and all complete", async () => {
  h = await startProxyHarness({ limit: 3, fake: { eventDelayMs: 10 } });
  const client = sdk(h.base);
  const answers = await Promise.all(Array.from({ length: 20 }, () => client.messages.create(ask)));
  expect(answers.map((a) => a.content[0])).toEqual(Array(20).fill({ type: "text", text: FIVE_WORDS }));
  expect(h.fake.stats.generations).toBe(20);
  expect(h.fake.stats.maxConcurrent).toBe(3);
  expect(h.fake.stats.rateLimited).toBe(0);
});

test("a 429 pauses the provider and lowers its limit once, and the SDK's own retry then succeeds", async () => {
  h = await startProxyHarness({ limit: 3, fake: { eventDelayMs: 0 } });
  h.fake.script({ status: 429, headers: { "retry-after": "1" } });
  const sentAt = Date.now();
  const message = await sdk(h.base).messages.create(ask);
  expect(message.content).toEqual([{ type: "text", text: FIVE_WORDS }]);
  // The retry waited out the pause the 429 asked for (in the SDK or in Headroom's queue).
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual(900);
  expect(h.fake.stats).toMatchObject({ generations: 2, rateLimited: 1 });

  const entry = (await h.client.status()).providers[0]!;
  expect(entry).toMatchObject({ limit: 2, autoReduced: true, autoReducedFrom: 3, active: 0 });
  const kinds = (await h.client.history()).events.map((e) => e.kind);
  expect(kinds.filter((k) => k === "reduced")).toHaveLength(1);
});

test("aborting a stream mid-way gives the slot back, so the next call at limit 1 goes through", async () => {
  h = await startProxyHarness({ limit: 1, fake: { events: 50, eventDelayMs: 50 } });
  const client = sdk(h.base, 0);
  const stream = client.messages.stream(ask);
  const ended = stream.done().catch((error: unknown) => error);
  await new Promise<void>((resolve) => stream.once("text", () => resolve()));
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 1 });
  stream.abort();
  expect(await ended).toBeInstanceOf(Anthropic.APIUserAbortError);

  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, recycling: 0 }));
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(0));
  h.fake.configure({ events: 2, eventDelayMs: 0 });
  const next = await client.messages.create(ask);
  expect(next.content).toEqual([{ type: "text", text: "Headroom keeps " }]);
});

test("a 529 opens the route, and the SDK parses the proxy's 503 as an overloaded error with retry-after", async () => {
  h = await startProxyHarness({ limit: 2, fake: { eventDelayMs: 0 } });
  const client = sdk(h.base, 0);
  h.fake.script(529);
  const overloaded = await client.messages.create(ask).catch((error: unknown) => error);
  expect(overloaded).toBeInstanceOf(Anthropic.APIError);
  expect((overloaded as InstanceType<typeof Anthropic.APIError>).status).toBe(529);

  const refused = await client.messages.create(ask).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(Anthropic.InternalServerError);
  const error = refused as InstanceType<typeof Anthropic.InternalServerError>;
  expect(error.status).toBe(503);
  expect(error.error).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
  expect(error.message).toContain("circuit breaker");
  expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
  expect(h.fake.stats.generations).toBe(1); // the refusal never reached the provider

  const route = (await h.client.routes()).routes[0]!;
  expect(route).toMatchObject({ targetId: "anthropic", runtimeId: "http", modelId: "claude-test", state: "open" });
});
