// GET /series (SPEC §4): the host's own load history, so the window's chart is full on open.
import { afterAll, beforeAll, expect, test } from "vitest";
import { rawRequest, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 3);
  await t.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const get = (path: string, withToken = true) =>
  rawRequest(t.url, { path, headers: withToken ? { authorization: `Bearer ${t.host.token}` } : {} });

test("answers every provider's samples, 2 s apart, with the current load in the newest", async () => {
  await expect.poll(async () => (await t.client.series()).providers.anthropic?.at.length ?? 0, { timeout: 8_000 }).toBeGreaterThanOrEqual(2);
  const { stepMs, providers } = await t.client.series(5);
  expect(stepMs).toBe(2_000);
  const anthropic = providers.anthropic!;
  expect(anthropic.at[1]! - anthropic.at[0]!).toBeGreaterThanOrEqual(1_900);
  expect(anthropic.limit.at(-1)).toBe(3);
  expect(anthropic.active.at(-1)).toBe(1);
  expect([anthropic.limit, anthropic.active, anthropic.queued, anthropic.recycling].map((a) => a.length)).toEqual(Array(4).fill(anthropic.at.length));
});

test("needs the token, and minutes must be 1 to 60", async () => {
  expect((await get("/series", false)).status).toBe(401);
  for (const minutes of ["0", "61", "1.5", "five"]) {
    const answer = await get(`/series?minutes=${minutes}`);
    expect(answer.status).toBe(400);
    expect(answer.json().error.message).toMatch(/^minutes must be an integer from 1 to 60 \(got /);
  }
  expect((await get("/series?minutes=60")).status).toBe(200);
});
