// SPEC §6 "Gemini" and the gated paths: Gemini's generateContent and streamGenerateContent
// are gated in every spelling with the model from the path, Headroom's own refusals there
// are in Google's error format, a 429 waits its RetryInfo `retryDelay`, and an error chunk
// inside a Gemini stream counts the moment it passes. `/responses` at the root (Codex on a
// ChatGPT login) is gated too.
import { request } from "node:http";
import { afterEach, expect, test } from "vitest";
import { googleErrorBody } from "../../demo/fake-gemini";
import { eventually } from "../support/test-host";
import { post, startProxyHarness, streamUntil, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const contents = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
const generate = (model = "gemini-2.5-flash") => `/v1beta/models/${model}:generateContent`;

/** A POST whose path goes on the wire exactly as written. */
function postVerbatim(proxyUrl: string, path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += String(chunk)));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(contents));
  });
}

const entry = async (t: ProxyHarness) => (await t.client.status()).providers.find((p) => p.providerId === t.providerId)!;

test("every spelling of Gemini's generation paths waits for the slot; the model comes from the path", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "gemini", fake: { eventDelayMs: 0 } });
  const held = await h.client.acquire({ providerId: h.providerId, agentId: "holder" });
  const spellings = [
    generate(),
    "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    "/v1beta/models/gemini-2.5-flash:STREAMGENERATECONTENT",
    "/V1BETA/Models/gemini-2.5-flash:generateContent/",
    "/v1beta//models/gemini-2.5-flash:generate%43ontent",
    "/v1beta/x/../models/gemini-2.5-flash:generateContent",
  ];
  const answers = spellings.map((path) => postVerbatim(h!.proxyUrl, `/gemini${path}`));
  await eventually(async () => expect((await entry(h!)).queued).toBe(spellings.length));
  expect(h.fake.stats.requests).toBe(0);

  // An escaped colon is refused, in Google's format, and never reaches the upstream.
  const escaped = await postVerbatim(h.proxyUrl, "/gemini/v1beta/models/gemini-2.5-flash%3AgenerateContent");
  expect(escaped.status).toBe(400);
  expect(JSON.parse(escaped.text)).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT", message: expect.stringContaining("Headroom") } });
  // Other methods pass straight through: a token count uses no slot.
  expect((await postVerbatim(h.proxyUrl, "/gemini/v1beta/models/gemini-2.5-flash:countTokens")).status).toBe(404);
  expect(h.fake.stats.paths).toEqual(["/v1beta/models/gemini-2.5-flash:countTokens"]);

  await h.client.release(held.leaseId, "success");
  const done = await Promise.all(answers);
  expect(done.map((a) => a.status)).toEqual(spellings.map(() => 200));
  expect(h.fake.stats.maxConcurrent).toBe(1);
  expect(done[1]!.text).toMatch(/^data: \{"candidates"/);
  expect((await h.client.routes()).routes.map((r) => r.modelId)).toEqual(["gemini-2.5-flash"]);
});

test("POST /responses at the provider's root is gated (Codex on a ChatGPT login)", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "chatgpt", fake: { eventDelayMs: 0 } });
  const held = await h.client.acquire({ providerId: h.providerId });
  const answer = post(`${h.base}/responses`, { model: "gpt-5-codex", input: "hi" });
  await eventually(async () => expect((await entry(h!)).queued).toBe(1));
  expect(h.fake.stats.requests).toBe(0);
  await h.client.release(held.leaseId, "success");
  expect((await answer).status).toBe(200);
  expect(h.fake.stats.lastPath).toBe("/responses");
});

test("a Gemini 429 pauses the provider for its RetryInfo retryDelay; Headroom's refusals then are Google's", async () => {
  h = await startProxyHarness({ limit: 2, providerId: "gemini" });
  h.fake.script({ status: 429, body: googleErrorBody(429, "Resource has been exhausted", "37s") });
  const before = Date.now();
  const answer = await post(`${h.base}${generate()}`, contents);
  expect(answer.status).toBe(429);
  expect(answer.json()).toMatchObject({ error: { status: "RESOURCE_EXHAUSTED" } }); // the provider's own, unchanged
  const paused = await entry(h);
  expect(paused).toMatchObject({ paused: true });
  expect(paused.pausedUntil! - before).toBeGreaterThanOrEqual(36_000);
  expect(paused.pausedUntil! - Date.now()).toBeLessThanOrEqual(37_000);

  await h.client.resume(h.providerId);
  h.fake.script(500, 500, 500, 500, 500);
  for (let i = 0; i < 5; i++) await post(`${h.base}${generate()}`, contents);
  const refused = await post(`${h.base}${generate()}`, contents);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("x-headroom-error")).toBe("route_open");
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(refused.json()).toEqual({
    error: {
      code: 503,
      status: "UNAVAILABLE",
      message: expect.stringMatching(/^Headroom: route gemini \/ http \/ gemini-2.5-flash is paused/),
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "route_open", domain: "headroom" },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfter}s` },
      ],
    },
  });
});

test("a Gemini provider without an upstream answers 502 in Google's format", async () => {
  h = await startProxyHarness({ providerId: "gemini" });
  await h.client.setProvider("gemini", { upstream: null });
  const answer = await post(`${h.base}${generate()}`, contents);
  expect(answer.status).toBe(502);
  expect(answer.json()).toMatchObject({ error: { code: 502, status: "UNAVAILABLE", message: expect.stringContaining("no upstream URL") } });
});

test("an error chunk inside a Gemini stream pauses the provider the moment it passes, and the stream's end adds nothing", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "gemini" });
  const error = `data: ${JSON.stringify(googleErrorBody(429, "quota", "2s"))}\r\n\r\n`;
  h.fake.script({ status: 200, stream: ['data: {"candidates":[{"content":{"parts":[{"text":"h"}]}}]}\r\n\r\n', error], stallAfterStream: true });
  const stream = await streamUntil(`${h.base}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`, contents, "RESOURCE_EXHAUSTED");
  // Paused while the stream is still open, for the chunk's own retryDelay, the limit lowered once.
  await eventually(async () => expect(await entry(h!)).toMatchObject({ paused: true, active: 1, limit: 2 }));
  expect((await entry(h)).pausedUntil! - Date.now()).toBeLessThanOrEqual(2_000);
  stream.destroy();
  await eventually(async () => expect(await entry(h!)).toMatchObject({ active: 0, limit: 2 }));
  const kinds = (await h.client.history()).events.filter((e) => e.kind === "rate_limited");
  expect(kinds).toHaveLength(1);
});

test("without alt=sse the stream is one JSON array: its error element pauses the provider the moment it passes", async () => {
  h = await startProxyHarness({ limit: 3, providerId: "gemini" });
  // As Google sends it: pretty-printed elements, the error last, split mid-object across writes.
  const chunk = JSON.stringify({ candidates: [{ content: { parts: [{ text: "h" }] } }] }, null, 2);
  const error = JSON.stringify(googleErrorBody(429, "quota", "2s"), null, 2);
  const cut = error.indexOf("RESOURCE_") + 4;
  h.fake.script({
    status: 200,
    headers: { "content-type": "application/json; charset=UTF-8" },
    stream: [`[${chunk}`, `,\r\n${error.slice(0, cut)}`, error.slice(cut)],
    stallAfterStream: true,
  });
  const stream = await streamUntil(`${h.base}/v1beta/models/gemini-2.5-pro:streamGenerateContent`, contents, "EXHAUSTED");
  await eventually(async () => expect(await entry(h!)).toMatchObject({ paused: true, active: 1, limit: 2 }));
  expect((await entry(h)).pausedUntil! - Date.now()).toBeLessThanOrEqual(2_000);
  stream.destroy();
  await eventually(async () => expect(await entry(h!)).toMatchObject({ active: 0 }));
  expect((await h.client.history()).events.filter((e) => e.kind === "rate_limited")).toHaveLength(1);
});
