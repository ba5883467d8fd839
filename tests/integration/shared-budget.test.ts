// SPEC §9 "Daily budget" for a shared provider (SPEC §7): every host's cost adds up in Redis and
// the budget day ends at midnight UTC. Two real hosts with their proxies on one real
// redis-server, in front of the fake provider: $0.30 through each reaches a $0.50 budget, and
// both hosts pause and refuse; a third host started later knows what the day has cost.
import { afterEach, expect, test } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { connectRedis } from "../../electron/shared-pool/redis-link";
import { post } from "../support/proxy-harness";
import { freshPrefix } from "../support/shared-pool-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";
import { useRedisServer } from "../support/use-redis";

const redis = useRedisServer();
const hosts: TestHost[] = [];
let fake: FakeProvider | undefined;
afterEach(async () => {
  for (const running of hosts.splice(0)) {
    await running.stop();
    removeDir(running.dataDir);
  }
  await fake?.close();
  fake = undefined;
});

const MODEL = "claude-sonnet-4-5"; // $3 per million input tokens
const message = { model: MODEL, max_tokens: 8, stream: true, messages: [{ role: "user", content: "hi" }] };
const sse = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
/** An Anthropic stream whose 100,000 input tokens cost $0.30. */
const thirtyCents = () => [
  sse("message_start", { type: "message_start", message: { id: "msg_s", type: "message", role: "assistant", model: MODEL, content: [], usage: { input_tokens: 100_000, output_tokens: 0 } } }),
  sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 0 } }),
  sse("message_stop", { type: "message_stop" }),
];

async function sharedHost(name: string, prefix: string): Promise<TestHost> {
  const running = await startTestHost({ dataDir: tempDir(), proxyPort: 0, redis: { url: redis.server.url, prefix, hostName: name } });
  hosts.push(running);
  await running.client.setLimit("anthropic", 2);
  await running.client.setProvider("anthropic", { upstream: fake!.url, shared: true, dailyBudgetUsd: 0.5 });
  return running;
}

const entryOf = async (h: TestHost) => (await h.client.status()).providers.find((p) => p.providerId === "anthropic")!;
const ask = (h: TestHost) => post(`${h.host.proxyUrl}/anthropic/v1/messages`, message);

test("two hosts' costs add up in Redis: $0.30 on each reaches a $0.50 budget and pauses both until midnight UTC", async () => {
  fake = await startFakeProvider({ eventDelayMs: 0 });
  const prefix = freshPrefix();
  const [laptop, devbox] = [await sharedHost("laptop", prefix), await sharedHost("devbox", prefix)];

  fake.script({ status: 200, stream: thirtyCents() });
  expect((await ask(laptop)).status).toBe(200);
  await eventually(async () => expect((await entryOf(devbox)).budget?.spentUsd).toBeCloseTo(0.3, 9), 10_000);
  expect((await entryOf(devbox)).paused).toBe(false);

  fake.script({ status: 200, stream: thirtyCents() });
  expect((await ask(devbox)).status).toBe(200);
  for (const h of [laptop, devbox]) {
    const entry = await eventually(async () => {
      const now = await entryOf(h);
      expect(now.pauseKind).toBe("budget");
      return now;
    }, 10_000);
    expect(entry).toMatchObject({ paused: true, pauseReason: "daily budget of $0.50 reached; resets at midnight UTC" });
    expect(entry.budget!.spentUsd).toBeCloseTo(0.6, 9);
    const nextUtcMidnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
    expect([nextUtcMidnight, nextUtcMidnight + 86_400_000]).toContain(entry.pausedUntil);
    const refused = await ask(h);
    expect(refused.status).toBe(429);
    expect(refused.text).toMatch(/daily budget of \$0\.50 reached; resets at midnight UTC/);
  }

  // Redis holds the day's sum under the provider and the UTC date.
  const link = connectRedis(redis.server.url);
  try {
    const date = new Date(Date.now()).toISOString().slice(0, 10);
    expect(await link.readFloat(`${prefix}:anthropic:spend:${date}`)).toBeCloseTo(0.6, 9);
  } finally {
    await link.close();
  }

  // A host that joins later reads the day's cost from Redis and is paused as well.
  const ci = await sharedHost("ci", prefix);
  await eventually(async () => expect(await entryOf(ci)).toMatchObject({ paused: true, pauseKind: "budget" }), 10_000);
});

test("a shared provider's budget is one for every host: a joining host takes Redis's, a change on one reaches the others", async () => {
  fake = await startFakeProvider({ eventDelayMs: 0 });
  const prefix = freshPrefix();
  const laptop = await sharedHost("laptop", prefix); // Redis held none: the first host's $0.50 seeds it
  const devbox = await startTestHost({ dataDir: tempDir(), proxyPort: 0, redis: { url: redis.server.url, prefix, hostName: "devbox" } });
  hosts.push(devbox);
  await devbox.client.setLimit("anthropic", 2);
  await devbox.client.setProvider("anthropic", { upstream: fake.url, dailyBudgetUsd: 3 });
  await devbox.client.setProvider("anthropic", { shared: true });
  // Joining, Redis's amount wins over this host's own $3, in its status and its settings.
  await eventually(async () => expect((await entryOf(devbox)).budget?.dailyUsd).toBe(0.5), 10_000);
  expect((await devbox.client.provider("anthropic")).dailyBudgetUsd).toBe(0.5);

  await devbox.client.setProvider("anthropic", { dailyBudgetUsd: 2 });
  await eventually(async () => expect((await entryOf(laptop)).budget?.dailyUsd).toBe(2), 10_000);
  await laptop.client.setProvider("anthropic", { dailyBudgetUsd: null });
  await eventually(async () => expect((await entryOf(devbox)).budget).toBeUndefined(), 10_000);
  expect((await devbox.client.provider("anthropic")).dailyBudgetUsd).toBeUndefined();
});
