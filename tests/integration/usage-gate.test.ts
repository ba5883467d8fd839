import { afterEach, expect, test } from "vitest";
import { eventually } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", messages: [] };

/** Limit 2 held by two API leases, one proxy request queued behind them, the gate on /usage. */
async function queuedBehindTwoLeases() {
  h = await startProxyHarness({ limit: 2, fake: { events: 1, eventDelayMs: 5 } });
  await h.client.setProvider(h.providerId, { usageGate: { url: `${h.fake.url}/usage`, pollMs: 250 } });
  const first = await h.client.acquire({ providerId: h.providerId, agentId: "holder-1" });
  await h.client.acquire({ providerId: h.providerId, agentId: "holder-2" });
  const queued = post(`${h.base}/v1/messages`, message);
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ queued: 1 }));
  return { first, queued };
}

const entry = async () => (await h!.client.status()).providers[0]!;

test("admission waits while the provider reports concurrent_sessions at the limit, and goes once it drops", async () => {
  const { first, queued } = await queuedBehindTwoLeases();
  h!.fake.setUsage(2); // e.g. sessions opened on this account from another machine
  await h!.client.release(first.leaseId, "success");

  // Two polls answered "2" after the slot came free (nothing else reaches the fake meanwhile).
  const polledBefore = h!.fake.stats.requests;
  await eventually(() => expect(h!.fake.stats.requests).toBeGreaterThanOrEqual(polledBefore + 2));
  expect(await entry()).toMatchObject({ active: 1, queued: 1, usageGate: { ok: true, concurrentSessions: 2 } });
  expect(h!.fake.stats.generations).toBe(0);

  h!.fake.setUsage(1);
  expect((await queued).status).toBe(200);
  expect((await entry()).usageGate).toMatchObject({ ok: true, concurrentSessions: 1 });
});

test("the live in-flight count of the fake provider feeds the gate", async () => {
  const { first, queued } = await queuedBehindTwoLeases();
  await h!.client.release(first.leaseId, "success");
  expect((await queued).status).toBe(200);
  expect((await entry()).usageGate).toMatchObject({ ok: true, concurrentSessions: 0 });
});

test("a usage endpoint that errors fails open and shows the error in the status", async () => {
  const { first, queued } = await queuedBehindTwoLeases();
  h!.fake.setUsage("error");
  await h!.client.release(first.leaseId, "success");
  expect((await queued).status).toBe(200);
  expect((await entry()).usageGate).toMatchObject({ ok: false, error: expect.stringContaining("500") });
});

test("a usage endpoint that hangs for more than 2 s fails open", async () => {
  const { first, queued } = await queuedBehindTwoLeases();
  h!.fake.setUsage("hang");
  const released = Date.now();
  await h!.client.release(first.leaseId, "success");
  expect((await queued).status).toBe(200);
  // Not before the 2 s probe deadline; how soon after it is the machine's business, not the test's.
  expect(Date.now() - released).toBeGreaterThanOrEqual(1_900);
  expect((await entry()).usageGate).toMatchObject({ ok: false, error: expect.stringContaining("2 s") });
});
