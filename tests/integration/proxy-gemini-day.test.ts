// SPEC §6 "Gemini" and §8 through the real proxy in front of a fake Gemini: a 429 naming a
// per-day quota pauses the provider until the next midnight Pacific time and Headroom answers
// the next requests itself, in Google's format, without calling the upstream; so does such an
// error inside an `alt=sse` stream, and a gzip'd one. A per-minute quota keeps its RetryInfo wait.
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, expect, test } from "vitest";
import type { ConcurrencyStatusEntry } from "../../shared/types";
import * as recorded from "../fixtures/gemini-error-bodies";
import { eventually } from "../support/test-host";
import { post, startProxyHarness, streamUntil, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
let upstream: Server | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  upstream = undefined;
});

const contents = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
const generate = "/v1beta/models/gemini-2.0-flash:generateContent";
const entry = async (t: ProxyHarness) => (await t.client.status()).providers.find((p) => p.providerId === t.providerId)!;

// Told apart from the code under test: the wall clock in Los Angeles at that instant.
const pacificClock = new Intl.DateTimeFormat("en-US", { timeZone: "America/Los_Angeles", hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** Paused until a midnight in Los Angeles, the next one (never more than 25 hours away), for the day window. */
function expectPausedUntilPacificMidnight(paused: ConcurrencyStatusEntry, before: number): void {
  expect(paused).toMatchObject({ paused: true, autoReduced: false });
  expect(pacificClock.format(paused.pausedUntil!)).toBe("00:00:00");
  expect(paused.pausedUntil! - before).toBeGreaterThan(0);
  expect(paused.pausedUntil! - before).toBeLessThanOrEqual(25 * 3_600_000);
  expect(paused.pauseReason).toMatch(/^per-day window used up; resets (\w{3} )?\d\d:\d\d$/);
  expect(paused.windows).toEqual([{ name: "day", usedPercent: 100, status: "rejected", resetsAt: paused.pausedUntil, lengthMs: 86_400_000, seenAt: expect.any(Number) }]);
  expect(paused.pauseKind).toBe("window");
}

/** The next gated request is answered by Headroom at once, in Google's format; nothing reaches the upstream. */
async function expectRefusedAtOnce(t: ProxyHarness, pausedUntil: number, upstreamCalls: () => number): Promise<void> {
  const calls = upstreamCalls();
  const refused = await post(`${t.base}${generate}`, contents);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("x-headroom-error")).toBe("usage_limit_reached");
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(Math.abs(retryAfter - (pausedUntil - Date.now()) / 1000)).toBeLessThanOrEqual(2);
  expect(refused.json()).toEqual({
    error: {
      code: 429,
      status: "RESOURCE_EXHAUSTED",
      message: expect.stringMatching(/^Headroom: gemini's per-day window is used up; it resets at /),
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "usage_limit_reached", domain: "headroom" },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfter}s` },
      ],
    },
  });
  expect(upstreamCalls()).toBe(calls);
}

test("a per-day quota's 429 passes on, pauses the provider until midnight Pacific; the next request is refused at once", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "gemini" });
  h.fake.script({ status: 429, body: recorded.freeTierPerDay });
  const before = Date.now();
  const answer = await post(`${h.base}${generate}`, contents);
  expect(answer.status).toBe(429);
  expect(answer.json()).toEqual(recorded.freeTierPerDay); // Google's own, unchanged
  const paused = await entry(h);
  expectPausedUntilPacificMidnight(paused, before);
  expect(paused.limit).toBe(3);
  await expectRefusedAtOnce(h, paused.pausedUntil!, () => h!.fake.stats.generations);
  expect((await h.client.history()).events.some((e) => e.kind === "window_exhausted")).toBe(true);

  await h.client.resume("gemini");
  expect((await post(`${h.base}${generate}`, contents)).status).toBe(200);
});

test("a per-minute quota's 429 keeps its RetryInfo wait and is no window", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "gemini" });
  h.fake.script({ status: 429, body: recorded.freeTierPerMinute });
  const before = Date.now();
  expect((await post(`${h.base}${generate}`, contents)).status).toBe(429);
  const paused = await entry(h);
  expect(paused.paused).toBe(true);
  expect(paused.pausedUntil! - before).toBeGreaterThanOrEqual(25_000);
  expect(paused.pausedUntil! - Date.now()).toBeLessThanOrEqual(26_000);
  expect(paused.windows).toBeUndefined();
  expect(paused.pauseReason).not.toMatch(/window/);
});

test("a per-day error inside an alt=sse stream pauses until midnight Pacific the moment it passes, lowering nothing", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "gemini" });
  const error = `data: ${JSON.stringify(recorded.paidPerDay)}\r\n\r\n`;
  h.fake.script({ status: 200, stream: ['data: {"candidates":[{"content":{"parts":[{"text":"h"}]}}]}\r\n\r\n', error], stallAfterStream: true });
  const before = Date.now();
  const stream = await streamUntil(`${h.base}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, contents, "RESOURCE_EXHAUSTED");
  // Paused while the stream is still open; a window's refusal is no concurrency problem.
  await eventually(async () => expect(await entry(h!)).toMatchObject({ paused: true, active: 1, limit: 3 }));
  const paused = await entry(h);
  expectPausedUntilPacificMidnight(paused, before);
  await expectRefusedAtOnce(h, paused.pausedUntil!, () => h!.fake.stats.generations);
  stream.destroy();
  await eventually(async () => expect(await entry(h!)).toMatchObject({ active: 0, limit: 3, paused: true }));
});

test("a gzip'd per-day 429 is read too", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "gemini" });
  let calls = 0;
  const body = gzipSync(JSON.stringify(recorded.paidPerDay));
  upstream = createServer((req, res) => {
    calls++;
    req.resume();
    req.on("end", () => res.writeHead(429, { "content-type": "application/json", "content-encoding": "gzip", "content-length": body.length }).end(body));
  });
  await new Promise<void>((resolve) => upstream!.listen(0, "127.0.0.1", resolve));
  const address = upstream.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  await h.client.setProvider("gemini", { upstream: `http://127.0.0.1:${address.port}` });
  const before = Date.now();
  const answer = await post(`${h.base}${generate}`, contents);
  expect(answer.status).toBe(429);
  expect(answer.json()).toEqual(recorded.paidPerDay);
  const paused = await entry(h);
  expectPausedUntilPacificMidnight(paused, before);
  await expectRefusedAtOnce(h, paused.pausedUntil!, () => calls);
});
