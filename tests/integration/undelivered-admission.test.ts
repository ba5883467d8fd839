// SPEC §1: an admission that could not be delivered returns its slot at once, without cooldown.
import { request } from "node:http";
import { afterEach, expect, test } from "vitest";
import { eventually, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

/**
 * A queued acquire on a raw socket, so the test can hang up at any moment. `received` is the
 * lease when the answer had reached the client before it hung up (then it is the agent's).
 */
function queuedAcquire(url: string, token: string): { hangUp(): void; settled: Promise<string | undefined> } {
  const body = JSON.stringify({ providerId: "anthropic", agentId: "gone" });
  const req = request(`${url}/concurrency/acquire`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
  });
  let text = "";
  let complete = false;
  const settled = new Promise<string | undefined>((resolve) => {
    const done = () => resolve(complete ? (JSON.parse(text) as { leaseId: string }).leaseId : undefined);
    req.on("response", (res) => {
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => {
        complete = true;
        done();
      });
      res.on("error", done);
      res.on("close", done);
    });
    req.on("error", done);
    req.on("close", done);
  });
  req.end(body);
  return { hangUp: () => req.destroy(), settled };
}

test("a waiter that hangs up as it is admitted never keeps the slot (25 rounds)", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 1);
  await t.client.setCooldown("anthropic", 0);
  const entry = async () => (await t.client.status()).providers[0]!;
  for (let round = 0; round < 25; round++) {
    const held = await t.client.acquire({ providerId: "anthropic", agentId: "holder" });
    const waiter = queuedAcquire(t.url, t.host.token);
    await eventually(async () => expect((await entry()).queued).toBe(1));
    // Release and hang up together, the hang-up a little earlier or later each round.
    const release = t.client.release(held.leaseId, "success");
    if (round % 3 === 0) waiter.hangUp();
    else setTimeout(() => waiter.hangUp(), round % 5);
    await release;
    const received = await waiter.settled;
    // It read its admission before hanging up: like any agent holding a lease, it must release.
    if (received) await t.client.release(received, "success");
    await eventually(async () => expect({ round, ...(await entry()) }).toMatchObject({ round, active: 0, queued: 0, recycling: 0 }), 2_000);
  }
  // Still free: an acquire that may not wait gets it.
  await expect(t.client.acquire({ providerId: "anthropic", timeoutMs: 0 })).resolves.toMatchObject({ providerId: "anthropic" });
});
