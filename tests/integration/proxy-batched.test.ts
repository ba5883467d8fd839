// While the host's loop is saturated, gated requests go upstream, and their answers back, at the
// end of the loop's turn (electron/proxy/loop-pressure.ts, issue 27 item 6). A batched request
// must be gated, streamed, counted and released exactly like one sent at once: here every
// request and answer is batched.
import { afterEach, expect, test } from "vitest";
import { atEndOfTurn, EventLoopPressure } from "../../electron/proxy/loop-pressure";
import { eventually, sleep } from "../support/test-host";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 16, messages: [{ role: "user", content: "hi" }] };

function saturated(onAsked: () => void = () => {}) {
  let asked = 0;
  return {
    pressure: {
      saturated: () => {
        asked++;
        onAsked();
        return true;
      },
    },
    asked: () => asked,
  };
}

test("batched, 8 concurrent requests keep to a limit of 2, stream whole and are counted", async () => {
  const loop = saturated();
  h = await startProxyHarness({ limit: 2, fake: { events: 4, eventDelayMs: 15 }, host: { proxyPressure: loop.pressure } });
  const answers = await Promise.all(Array.from({ length: 8 }, () => post(`${h!.base}/v1/messages`, { ...message, stream: true })));
  expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  for (const answer of answers) expect(answer.text).toContain("message_stop");
  // Asked as each request goes upstream, as its answer comes back and as its books are settled.
  expect(loop.asked()).toBeGreaterThanOrEqual(16);
  expect(h.fake.stats.maxConcurrent).toBe(2);
  // Settled at the end of the loop's turn, after the bytes: a moment after the last answer.
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
  await eventually(async () => expect((await h!.client.agents()).agents.reduce((sum, agent) => sum + agent.requests, 0)).toBe(8));
});

test("a client that leaves as its request is batched gives its slot back", async () => {
  let leave: (() => void) | undefined;
  const loop = saturated(() => leave?.());
  h = await startProxyHarness({ limit: 1, fake: { events: 2, eventDelayMs: 10 }, host: { proxyPressure: loop.pressure } });
  const leaving = openRequest(`${h.base}/v1/messages`, message);
  leaving.response.catch(() => {});
  leave = () => leaving.req.destroy();
  await eventually(() => expect(loop.asked()).toBeGreaterThanOrEqual(1));
  leave = undefined;
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
});

test("the loop reads as saturated only while it is busy", async () => {
  const pressure = new EventLoopPressure();
  const busyUntil = performance.now() + 150;
  while (performance.now() < busyUntil); // a loop with no idle time
  expect(pressure.saturated()).toBe(true);
  await sleep(150); // idle: waiting is not work
  expect(pressure.saturated()).toBe(false);
});

test("what is deferred runs at the end of the turn, in order, and one that throws does not hold back the rest", async () => {
  const ran: string[] = [];
  const thrown: unknown[] = [];
  const onUncaught = (error: unknown) => thrown.push(error);
  // vitest's own listener would fail the run: ours alone sees the one thrown on purpose.
  const theirs = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  process.on("uncaughtException", onUncaught);
  try {
    atEndOfTurn((name) => ran.push(name), "first");
    atEndOfTurn(() => {
      throw new Error("a broken settle");
    }, undefined);
    atEndOfTurn((name) => {
      ran.push(name);
      atEndOfTurn((later) => ran.push(later), "next turn");
    }, "third");
    ran.push("now");
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["now", "first", "third"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["now", "first", "third", "next turn"]);
    expect(thrown).toEqual([new Error("a broken settle")]);
  } finally {
    process.off("uncaughtException", onUncaught);
    for (const listener of theirs) process.on("uncaughtException", listener);
  }
});
