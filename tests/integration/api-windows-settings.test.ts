// SPEC §8 holdNewAtPercent and SPEC §1 "Accept" over HTTP: bad input is a 400 naming the
// field and the range, the hold survives a restart, accept keeps the lowered limit, and a
// restore that does not stick says so.
import { afterEach, expect, test } from "vitest";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost | undefined;
afterEach(async () => {
  await t?.stop();
  if (t) removeDir(t.dataDir);
  t = undefined;
});

const put = (host: TestHost, body: unknown) =>
  fetch(`${host.url}/concurrency/providers/anthropic`, {
    method: "PUT",
    headers: { authorization: `Bearer ${host.host.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test.each([0, 101, 1.5, "90", true])("holdNewAtPercent %j is a 400 naming the field and the range", async (value) => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 2);
  const answer = await put(t, { holdNewAtPercent: value });
  expect(answer.status).toBe(400);
  const { error } = (await answer.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe("invalid_input");
  expect(error.message).toContain("holdNewAtPercent");
  expect(error.message).toMatch(/1 to 100/);
});

test("the hold is persisted across a restart and null clears it", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 2);
  expect(await (await put(t, { holdNewAtPercent: 85 })).json()).toMatchObject({ holdNewAtPercent: 85 });
  const dataDir = t.dataDir;
  await t.stop();
  t = await startTestHost({ dataDir });
  expect((await t.client.provider("anthropic")).holdNewAtPercent).toBe(85);
  expect(await (await put(t, { holdNewAtPercent: null })).json()).not.toHaveProperty("holdNewAtPercent");
});

test("accept keeps the lowered limit and answers the status entry; a restore lowered again within 60 s says so", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 3);
  const lease = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(lease.leaseId, "rate_limited", 10);
  const accepted = await fetch(`${t.url}/concurrency/notice/anthropic/accept`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.host.token}` },
  });
  expect(accepted.status).toBe(200);
  expect(await accepted.json()).toMatchObject({ providerId: "anthropic", limit: 2, autoReduced: false });

  // Lowered again, restored by hand, and lowered again right after: the notice says it did not stick.
  await new Promise((r) => setTimeout(r, 20));
  const second = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(second.leaseId, "rate_limited", 10);
  expect((await t.client.status()).providers[0]).toMatchObject({ limit: 1, autoReduced: true });
  await new Promise((r) => setTimeout(r, 20));
  await t.client.setLimit("anthropic", 2);
  const third = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(third.leaseId, "rate_limited", 10);
  const entry = (await t.client.status()).providers[0]!;
  expect(entry).toMatchObject({ limit: 1, autoReduced: true });
  expect(entry.notice).toMatch(/^anthropic lowered the limit again \d+ s after the restore: the provider allows 1 right now$/);
});
