// SPEC §9 "Daily budget" through the real proxy and the fake provider: a budget reached while a
// stream is in flight lets that stream finish and refuses the next request with a 429 naming
// the budget and midnight; API waiters wait for it (or get their timeout at once when it falls
// before midnight); raising the budget lets them in at once with a pushed status; and today's
// cost survives a restart of the host in the same data folder.
import { afterEach, expect, test } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { ApiError } from "../../shared/api-client";
import { cliEnv, runCli } from "../support/cli-harness";
import { readingClient } from "../support/event-readers";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let h: ProxyHarness | undefined;
let t: TestHost | undefined;
let fake: FakeProvider | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  await t?.stop();
  await fake?.close();
  h = t = fake = undefined;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const MODEL = "claude-sonnet-4-5"; // $3 per million input tokens, under its 200k long-context tier
const message = { model: MODEL, max_tokens: 8, stream: true, messages: [{ role: "user", content: "hi" }] };
const sse = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** An Anthropic stream whose input costs `inputTokens` × $3 per million. */
function pricedStream(inputTokens: number): string[] {
  return [
    sse("message_start", { type: "message_start", message: { id: "msg_b", type: "message", role: "assistant", model: MODEL, content: [], usage: { input_tokens: inputTokens, output_tokens: 0 } } }),
    sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }),
    sse("content_block_stop", { type: "content_block_stop", index: 0 }),
    sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 0 } }),
    sse("message_stop", { type: "message_stop" }),
  ];
}

const entryOf = async (client: TestHost["client"]) => (await client.status()).providers.find((p) => p.providerId === "anthropic")!;

test("a budget reached mid-stream lets that stream finish; the next request is refused naming the budget and midnight; API waiters wait", async () => {
  h = await startProxyHarness({ limit: 3, fake: { eventDelayMs: 0 } });
  await h.client.setProvider("anthropic", { dailyBudgetUsd: 0.5 });
  let letFirstFinish!: () => void;
  const held = new Promise<void>((resolve) => (letFirstFinish = resolve));
  // The first answer stops mid-stream until the test lets it go on; the second costs $0.60 and ends at once.
  h.fake.script({ status: 200, stream: pricedStream(10_000), holdAt: { index: 3, until: held } }, { status: 200, stream: pricedStream(200_000) });
  const first = post(`${h.base}/v1/messages`, message, { "x-headroom-agent": "long" });
  await eventually(() => expect(h!.fake.stats.inFlight).toBe(1), 10_000);
  expect((await post(`${h.base}/v1/messages`, message, { "x-headroom-agent": "costly" })).status).toBe(200);

  const paused = await eventually(async () => {
    const entry = await entryOf(h!.client);
    expect(entry.pauseKind).toBe("budget");
    return entry;
  }, 10_000);
  expect(paused).toMatchObject({ paused: true, pauseReason: "daily budget of $0.50 reached; resets at midnight", budget: { dailyUsd: 0.5 } });
  expect(paused.budget!.spentUsd).toBeCloseTo(0.6, 9);

  // The stream in flight when the budget was reached finishes whole.
  letFirstFinish();
  const finished = await first;
  expect(finished.status).toBe(200);
  expect(finished.text).toContain("message_stop");

  // The next one is refused at once, in Anthropic's format, without reaching the provider.
  const generations = h.fake.stats.generations;
  const refused = await post(`${h.base}/v1/messages`, message);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((refused.json() as { error: { message: string } }).error.message).toMatch(/anthropic's daily budget of \$0\.50 reached; resets at midnight/);
  expect(h.fake.stats.generations).toBe(generations);

  // `headroom status` says the same, in JSON and in words.
  const json = await runCli(["status", "--json"], cliEnv(h));
  expect(JSON.parse(json.stdout).providers[0]).toMatchObject({ pauseKind: "budget", budget: { dailyUsd: 0.5 } });
  const words = await runCli(["status"], cliEnv(h));
  expect(words.stdout).toContain("! anthropic: daily budget of $0.50 reached; resets at midnight (headroom resume anthropic)");

  // An API waiter whose deadline falls before midnight gets its timeout at once; one without waits.
  await expect(h.client.acquire({ providerId: "anthropic", timeoutMs: 1_000 })).rejects.toMatchObject({ status: 408 });
  const waiting = h.client.acquire({ providerId: "anthropic", agentId: "night-shift" });
  await eventually(async () => expect((await entryOf(h!.client)).queued).toBe(1), 10_000);
  expect((await entryOf(h.client)).active).toBe(0);

  // Raising the budget above today's cost lets it in at once, and the window hears of it.
  const events = readingClient(h.host.port, h.host.token);
  try {
    await h.client.setProvider("anthropic", { dailyBudgetUsd: 5 });
    const admission = await waiting;
    expect(admission.providerId).toBe("anthropic");
    await eventually(() =>
      expect(events.frames.some((frame) => frame.event === "status" && frame.data.providers.some((p: { budget?: { dailyUsd: number }; paused: boolean }) => p.budget?.dailyUsd === 5 && !p.paused))).toBe(true),
    );
    await h.client.release(admission.leaseId, "success");
  } finally {
    events.close();
  }
});

test("an API waiter queued for a slot when the budget is reached is not admitted by the next release", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 0 } });
  await h.client.setProvider("anthropic", { dailyBudgetUsd: 0.5 });
  const holder = await h.client.acquire({ providerId: "anthropic", agentId: "holder" });
  const queued = h.client.acquire({ providerId: "anthropic", agentId: "queued" });
  await eventually(async () => expect((await entryOf(h!.client)).queued).toBe(1), 10_000);
  // Riding the held lease, an answer that costs $0.60 reaches the budget.
  h.fake.script({ status: 200, stream: pricedStream(200_000) });
  expect((await post(`${h.base}/v1/messages`, message, { "x-headroom-lease": holder.leaseId })).status).toBe(200);
  await eventually(async () => expect((await entryOf(h!.client)).pauseKind).toBe("budget"), 10_000);
  await h.client.release(holder.leaseId, "success");
  // The freed slot goes to nobody: the waiter waits for the budget, still counted as queued.
  await eventually(async () => expect(await entryOf(h!.client)).toMatchObject({ active: 0, queued: 1 }), 10_000);
  await h.client.resume("anthropic"); // Resume now: the rest of the day goes on
  const admission = await queued;
  await h.client.release(admission.leaseId, "success");
});

test("today's cost survives a restart of the host: at $0.30 of $0.50 it stays at $0.30, and the next $0.30 pauses it", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  fake = await startFakeProvider({ eventDelayMs: 0 });
  const start = async () => {
    t = await startTestHost({ dataDir, proxyPort: 0 });
    return t;
  };
  let host = await start();
  await host.client.setLimit("anthropic", 2);
  await host.client.setProvider("anthropic", { upstream: fake.url, dailyBudgetUsd: 0.5 });
  fake.script({ status: 200, stream: pricedStream(100_000) });
  expect((await post(`${host.host.proxyUrl}/anthropic/v1/messages`, message)).status).toBe(200);
  await eventually(async () => expect((await entryOf(host.client)).budget?.spentUsd).toBeCloseTo(0.3, 9), 10_000);
  await host.stop();

  host = await start();
  const after = await entryOf(host.client);
  expect(after.budget?.spentUsd).toBeCloseTo(0.3, 9);
  expect(after.paused).toBe(false);
  fake.script({ status: 200, stream: pricedStream(100_000) });
  expect((await post(`${host.host.proxyUrl}/anthropic/v1/messages`, message)).status).toBe(200);
  await eventually(async () => expect(await entryOf(host.client)).toMatchObject({ paused: true, pauseKind: "budget" }), 10_000);
  const history = (await host.client.history()).events.map((event) => event.kind);
  expect(history.filter((kind) => kind === "budget_reached")).toHaveLength(1);
});

test("a host restarted after the budget was reached is paused at once, without saying so twice", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  fake = await startFakeProvider({ eventDelayMs: 0 });
  t = await startTestHost({ dataDir, proxyPort: 0 });
  await t.client.setLimit("anthropic", 2);
  await t.client.setProvider("anthropic", { upstream: fake.url, dailyBudgetUsd: 0.5 });
  fake.script({ status: 200, stream: pricedStream(200_000) });
  expect((await post(`${t.host.proxyUrl}/anthropic/v1/messages`, message)).status).toBe(200);
  await eventually(async () => expect((await entryOf(t!.client)).pauseKind).toBe("budget"), 10_000);
  await t.stop();
  t = await startTestHost({ dataDir, proxyPort: 0 });
  expect((await post(`${t.host.proxyUrl}/anthropic/v1/messages`, message)).status).toBe(429);
  expect(await entryOf(t.client)).toMatchObject({ paused: true, pauseKind: "budget" });
  await expect(t.client.acquire({ providerId: "anthropic", timeoutMs: 0 })).rejects.toBeInstanceOf(ApiError);
});
