// SPEC §6 "Lease-scoped requests": requests on a held lease use its slot instead of a new one.
import { afterEach, expect, test } from "vitest";
import { cliEnv, killStrayClis, nodeScript, spawnCli } from "../support/cli-harness";
import { eventually } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  killStrayClis();
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

// What an agent does: read its base URL from the environment and call the API there.
const agent = nodeScript(
  `fetch(process.env.ANTHROPIC_BASE_URL + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, ` +
    `body: JSON.stringify(${JSON.stringify(message)}) }).then(async (r) => { ` +
    `console.log(JSON.stringify({ status: r.status, base: process.env.ANTHROPIC_BASE_URL, lease: process.env.HEADROOM_LEASE_ID })); ` +
    `process.exit(r.status === 200 ? 0 : 1); })`,
);

test("headroom run with ANTHROPIC_BASE_URL at the proxy completes at limit 1, holding one slot", async () => {
  h = await startProxyHarness({ limit: 1 });
  const run = spawnCli(["run", "--provider", h.providerId, "--", ...agent], cliEnv(h, { ANTHROPIC_BASE_URL: h.base }));
  const exited = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve("deadlock"), 15_000))]);
  expect(exited, run.stderr()).toEqual({ code: 0, signal: null });
  const seen = JSON.parse(run.stdout().trim()) as { status: number; base: string; lease: string };
  expect(seen.lease).toMatch(/\S/);
  expect(seen.base).toBe(`${h.base}/_lease/${seen.lease}`);
  expect(h.fake.stats.generations).toBe(1);
  expect(h.fake.stats.lastPath).toBe("/v1/messages");
  expect(h.fake.stats.lastHeaders?.["x-headroom-lease"]).toBeUndefined();
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
});

test("headroom run --via-proxy points the agent at the proxy by itself", async () => {
  h = await startProxyHarness({ limit: 1 });
  const run = spawnCli(["run", "--provider", h.providerId, "--via-proxy", "--", ...agent], cliEnv(h));
  expect(await run.exited, run.stderr()).toEqual({ code: 0, signal: null });
  const seen = JSON.parse(run.stdout().trim()) as { base: string; lease: string };
  expect(seen.base).toBe(`${h.base}/_lease/${seen.lease}`);
  expect(h.fake.stats.generations).toBe(1);
});

test("x-headroom-lease rides any number of requests on a held lease; an unknown lease is gated as usual", async () => {
  h = await startProxyHarness({ limit: 1 });
  const held = await h.client.acquire({ providerId: h.providerId, agentId: "agent" });
  const rides = await Promise.all([1, 2, 3].map(() => post(`${h!.base}/v1/messages`, message, { "x-headroom-lease": held.leaseId })));
  expect(rides.map((r) => r.status)).toEqual([200, 200, 200]);
  expect((await h.client.status()).providers[0]).toMatchObject({ active: 1, queued: 0 });

  const stranger = post(`${h.base}/v1/messages`, message, { "x-headroom-lease": "no-such-lease" });
  await eventually(async () => expect((await h!.client.status()).providers[0]!.queued).toBe(1));
  await h.client.release(held.leaseId, "success");
  expect((await stranger).status).toBe(200);
});

test("a 429 on a ride pauses the provider and lowers the limit as the lease's release would; the lease stays held", async () => {
  h = await startProxyHarness({ limit: 2 });
  const held = await h.client.acquire({ providerId: h.providerId, agentId: "agent" });
  h.fake.script({ status: 429, headers: { "retry-after": "2" } });
  expect((await post(`${h.base}/_lease/${held.leaseId}/v1/messages`, message)).status).toBe(429);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: true, limit: 1, autoReduced: true, active: 1 });
  expect(await h.client.release(held.leaseId, "success")).toEqual({ released: true });
});
