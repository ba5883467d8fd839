// SPEC §9 through a real host, proxy and fake provider: who each agent is, what it used, and
// how that reaches GET /agents, GET /usage, /events and /metrics.
import { afterEach, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { readingClient } from "../support/event-readers";
import { Agent, request, type IncomingMessage } from "node:http";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = (model = "claude-test") => ({ model, max_tokens: 16, stream: true, messages: [{ role: "user", content: "hi" }] });
const text = async (res: IncomingMessage) => {
  let body = "";
  for await (const piece of res) body += String(piece);
  return body;
};
const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite });

test("each agent's requests, tokens and cost are counted from the stream, per agent, provider and model", async () => {
  h = await startProxyHarness({ fake: { events: 4, eventDelayMs: 0 } });
  expect((await post(`${h.base}/v1/messages`, message(), { "x-headroom-agent": "reviewer" })).status).toBe(200);
  expect((await post(`${h.base}/v1/messages`, message("claude-sonnet-4-5"), { "x-headroom-agent": "reviewer" })).status).toBe(200);
  expect((await post(`${h.base}/v1/messages`, message(), { "user-agent": "claude-cli/2.0.14 (external, cli)" })).status).toBe(200);

  const { agents } = await h.client.agents();
  expect(agents.map((agent) => [agent.label, agent.state, agent.requests, agent.tokens])).toEqual(
    expect.arrayContaining([
      ["reviewer", "idle", 2, tokens(20, 8)],
      ["claude-cli", "idle", 1, tokens(10, 4)],
    ]),
  );
  expect(agents.find((agent) => agent.label === "claude-cli")).toMatchObject({ providerId: "anthropic", userAgent: "claude-cli/2.0.14 (external, cli)" });

  const byAgent = await h.client.usage();
  expect(byAgent.until - byAgent.since).toBe(5 * 3_600_000);
  // claude-sonnet-4-5 at $3 in and $15 out per million: 10 × 3 + 4 × 15 = 90 micro-dollars.
  // The library has no claude-test: its tokens count, unpriced.
  expect(byAgent.rows).toEqual([
    { agent: "reviewer", requests: 2, rateLimited: 0, errors: 0, tokens: tokens(20, 8), costUsd: expect.closeTo(0.00009, 12), unpriced: 1 },
    { agent: "claude-cli", requests: 1, rateLimited: 0, errors: 0, tokens: tokens(10, 4), costUsd: 0, unpriced: 1 },
  ]);
  expect((await h.client.usage({ hours: 192, by: "model" })).rows.map((row) => [row.model, row.requests])).toEqual([
    ["claude-test", 2],
    ["claude-sonnet-4-5", 1],
  ]);
  expect((await h.client.usage({ by: "provider" })).rows).toEqual([expect.objectContaining({ providerId: "anthropic", requests: 3 })]);

  const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.host.token}` } })).text();
  expect(metrics).toContain('headroom_tokens_total{provider="anthropic",kind="input"} 30');
  expect(metrics).toContain('headroom_tokens_total{provider="anthropic",kind="output"} 12');
  expect(metrics).toMatch(/headroom_cost_usd_total\{provider="anthropic"\} 0\.0000(9|89999)/);
});

test("bad usage queries are refused with what is allowed", async () => {
  h = await startProxyHarness();
  for (const query of ["hours=0", "hours=193", "hours=1.5", "hours=many", "by=team"]) {
    const answer = await fetch(`${h.url}/usage?${query}`, { headers: { authorization: `Bearer ${h.host.token}` } });
    expect(answer.status, query).toBe(400);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_input");
    expect(body.error.message).toMatch(query.startsWith("by") ? /by must be one of agent, provider, model/ : /hours must be an integer from 1 to 192/);
  }
  await expect(h.client.usage({ hours: 0 })).rejects.toBeInstanceOf(ApiError);
});

test("a request riding a headroom run lease is that lease's agent, which shows as running while it holds", async () => {
  h = await startProxyHarness({ fake: { events: 2, eventDelayMs: 0 } });
  const lease = await h.client.acquire({ providerId: h.providerId, agentId: "migrator" });
  const ride = await post(`${h.proxyUrl}/${h.providerId}/_lease/${lease.leaseId}/v1/messages`, message(), { "x-headroom-agent": "ignored" });
  expect(ride.status).toBe(200);
  const { agents } = await h.client.agents();
  expect(agents[0]).toMatchObject({ label: "migrator", state: "running", requests: 1, tokens: tokens(10, 2) });
  await h.client.release(lease.leaseId, "success");
  expect((await h.client.agents()).agents[0]).toMatchObject({ label: "migrator", state: "idle" });
});

test("/events sends agents on connect and again on change", async () => {
  h = await startProxyHarness({ fake: { events: 1, eventDelayMs: 0 } });
  const reader = readingClient(h.host.port, h.host.token);
  try {
    await expect.poll(() => reader.frames.map((frame) => frame.event)).toEqual(["status", "routes", "agents", "history"]);
    expect(reader.frames[2]!.data).toEqual({ agents: [] });
    await post(`${h.base}/v1/messages`, message(), { "x-headroom-agent": "watcher" });
    await expect.poll(() => reader.frames.filter((frame) => frame.event === "agents").at(-1)?.data.agents[0]?.requests).toBe(1);
  } finally {
    reader.close();
  }
});

test("malformed usage from upstream never breaks the stream, and odd names arrive tamed", async () => {
  h = await startProxyHarness({ fake: { events: 1, eventDelayMs: 0 } });
  const pieces = ['event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":7,', '"output_tokens":}}}\n\n', 'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":3}}\n\n'];
  h.fake.script({ status: 200, stream: pieces });
  // A C1 CSI (U+009B) is what an HTTP header can carry to a terminal: C0 characters are refused by the parser.
  const opened = openRequest(`${h.base}/v1/messages`, message(`model\u001b[31m-red${"x".repeat(180)}`), { "user-agent": "evil\u009b31m/1" });
  const answer = await opened.response;
  expect(answer.statusCode).toBe(200);
  expect(await text(answer)).toBe(pieces.join(""));
  await post(`${h.base}/v1/messages`, message(), { "x-headroom-agent": "other" });
  const rows = (await h.client.usage({ by: "model" })).rows;
  const odd = rows.find((row) => row.model !== "claude-test")!;
  expect(odd.model).toMatch(/^model\?-redx+…$/);
  expect(odd.model!.length).toBe(128);
  expect(odd.tokens).toEqual(tokens(0, 3));
  expect(rows.find((row) => row.model === "claude-test")?.tokens).toEqual(tokens(10, 1));
  const evil = (await h.client.agents()).agents.find((agent) => agent.label !== "other")!;
  expect(evil.label).toMatch(/^evil\S?\?$/); // the sequence is replaced whole (the client may send it as UTF-8)
  expect(JSON.stringify(evil)).not.toMatch(/[\u0080-\u009f]/);
});

test("requests on one kept-alive connection are each their own header's agent", async () => {
  h = await startProxyHarness({ fake: { events: 1, eventDelayMs: 0 } });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (headers: Record<string, string>) =>
    new Promise<boolean>((resolve, reject) => {
      const body = JSON.stringify(message());
      const req = request(`${h!.base}/v1/messages`, { method: "POST", agent, headers: { "content-type": "application/json", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.reusedSocket));
      });
      req.on("error", reject);
      req.end(body);
    });
  try {
    await send({ "x-headroom-agent": "reviewer", "user-agent": "tool/1" });
    // The proxy remembers the connection's identity: a changed header must still be seen.
    expect(await send({ "x-headroom-agent": "reviewer", "user-agent": "tool/1" })).toBe(true);
    expect(await send({ "x-headroom-agent": "fixer", "user-agent": "tool/1" })).toBe(true);
    expect(await send({ "user-agent": "tool/1" })).toBe(true);
  } finally {
    agent.destroy();
  }
  const { agents } = await h.client.agents();
  expect(agents.map((seen) => [seen.label, seen.requests]).sort()).toEqual([
    ["fixer", 1],
    ["reviewer", 2],
    ["tool", 1],
  ]);
});
