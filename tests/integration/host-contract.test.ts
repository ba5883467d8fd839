// SPEC §3: GET /host/info names the host; a body key that could reach a prototype is refused;
// a lease restored after a restart expires no sooner than its ttlMs after the host is ready.
import { hostname } from "node:os";
import { afterEach, expect, test } from "vitest";
import { rawRequest, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost | undefined;
afterEach(async () => {
  await t?.stop();
  if (t) removeDir(t.dataDir);
  t = undefined;
});

test("GET /host/info includes hostName, also without Redis", async () => {
  t = await startTestHost();
  const info = await t.client.hostInfo();
  expect(info.hostName).toBe(`${hostname().replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 50) || "host"}:${t.host.port}`);
});

test.each([
  ['{"__proto__":{"threshold":5}}', "body.__proto__"],
  ['{"threshold":2,"__proto__":{"cooldownMs":5}}', "body.__proto__"],
  ['{"constructor":{"prototype":{"threshold":5}}}', "body.constructor.prototype"],
])("PUT /routes/settings with %s answers 400 naming %s and changes nothing", async (body, field) => {
  t = await startTestHost();
  const before = (await t.client.routes()).settings;
  const res = await rawRequest(t.url, {
    method: "PUT",
    path: "/routes/settings",
    headers: { authorization: `Bearer ${t.host.token}`, "content-type": "application/json", host: new URL(t.url).host },
    body,
  });
  expect(res.status).toBe(400);
  expect(res.json().error).toMatchObject({ code: "invalid_input", message: expect.stringContaining(field) });
  expect((await t.client.routes()).settings).toEqual(before);
  expect(({} as Record<string, unknown>).threshold).toBeUndefined();
});

test("a lease restored after a restart expires no sooner than its ttlMs after the host is ready", async () => {
  const dataDir = tempDir();
  t = await startTestHost({ dataDir });
  await t.client.setLimit("anthropic", 1);
  const { leaseId } = await t.client.acquire({ providerId: "anthropic", ttlMs: 5_000 });
  await t.stop();
  const starting = Date.now();
  t = await startTestHost({ dataDir });
  // startTestHost resolves once the host listens; it was ready no sooner than `starting`.
  const ready = starting;
  const held = (await t.client.leases("anthropic")).held.find((lease) => lease.leaseId === leaseId);
  expect(held?.expiresAt).toBeGreaterThanOrEqual(ready + 5_000);
  expect((await t.client.status()).providers[0]).toMatchObject({ active: 1 });
});
