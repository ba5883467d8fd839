import { copyFileSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { startHost } from "../../electron/host/start-host";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.stop();
  t = undefined;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function start(dataDir: string, options = {}) {
  t = await startTestHost({ dataDir, ...options });
  return t;
}

test("settings, the auto-reduction and its dismissal survive a restart", async () => {
  const dir = tempDir();
  dirs.push(dir);
  let h = await start(dir);
  await h.client.setLimit("anthropic", 3);
  await h.client.setCooldown("anthropic", 1200);
  const lease = await h.client.acquire({ providerId: "anthropic" });
  await h.client.release(lease.leaseId, "rate_limited", 1000);
  await h.client.dismissNotice("anthropic");
  await h.stop();

  h = await start(dir);
  expect((await h.client.status()).providers[0]).toMatchObject({
    providerId: "anthropic",
    limit: 2,
    cooldownMs: 1200,
    autoReduced: true,
    autoReducedFrom: 3,
    noticeDismissed: true,
  });
});

test("a lease held over a restart still counts, so the limit is never exceeded", async () => {
  const dir = tempDir();
  dirs.push(dir);
  let h = await start(dir);
  await h.client.setLimit("anthropic", 1);
  await h.client.setCooldown("anthropic", 0);
  const held = await h.client.acquire({ providerId: "anthropic", agentId: "claude" });
  await h.stop();

  h = await start(dir);
  expect((await h.client.status()).providers[0]?.active).toBe(1);
  const refused = (await h.client.acquire({ providerId: "anthropic", timeoutMs: 0 }).catch((e) => e)) as ApiError;
  expect(refused.status).toBe(408);
  expect((await h.client.leases("anthropic")).held[0]).toMatchObject({ leaseId: held.leaseId, agentId: "claude" });
  expect(await h.client.release(held.leaseId, "success")).toEqual({ released: true });
  expect((await h.client.acquire({ providerId: "anthropic", timeoutMs: 0 })).leaseId).toBeTruthy();
});

test("the token is generated once, kept with mode 0600, and reused", async () => {
  const dir = tempDir();
  dirs.push(dir);
  let h = await start(dir);
  const token = h.host.token;
  expect(readFileSync(join(dir, "api-token"), "utf8").trim()).toBe(token);
  expect(statSync(join(dir, "api-token")).mode & 0o777).toBe(0o600);
  await h.stop();
  h = await start(dir);
  expect(h.host.token).toBe(token);
});

test("a second host on the same data folder refuses to start and names the running one", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const h = await start(dir);
  const error = await startHost({ kind: "serve", version: "x", port: 0, dataDir: dir, env: {} }).catch((e) => e as Error);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toContain(String(process.pid));
  expect((error as Error).message).toContain(h.url);
});

test("a corrupt settings file is moved aside and reported in the status", async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeFileSync(join(dir, "settings.json"), '{"schemaVersion":1,"providers":{"anthropic":{"limit":');
  const h = await start(dir);
  const status = await h.client.status();
  expect(status.providers).toEqual([]);
  expect(status.notices?.[0]).toMatch(/corrupt/i);
  expect(readdirSync(dir).some((f) => /^settings\.corrupt-.*\.json$/.test(f))).toBe(true);
});

test("upgrading from a settings.json that held leases: they are held still, each for its ttl from the start", async () => {
  const dir = tempDir();
  dirs.push(dir);
  // Written by the previous release, which kept held leases in settings.json.
  copyFileSync(join(import.meta.dirname, "../fixtures/settings-with-leases.json"), join(dir, "settings.json"));
  const startedAt = Date.now();
  const h = await start(dir);
  expect((await h.client.status()).providers[0]).toMatchObject({ providerId: "anthropic", limit: 4, active: 2 });
  const held = (await h.client.leases("anthropic")).held;
  expect(held.map((lease) => lease.leaseId).sort()).toEqual(["k3f9-1", "k3f9-2"]);
  for (const lease of held) expect(lease.expiresAt).toBeGreaterThanOrEqual(startedAt + 120_000);
  expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).not.toHaveProperty("leases");
  expect(statSync(join(dir, "leases.json")).mode & 0o777).toBe(0o600);
});

test("a corrupt held-leases file is moved aside and reported in the status; settings are kept", async () => {
  const dir = tempDir();
  dirs.push(dir);
  let h = await start(dir);
  await h.client.setLimit("anthropic", 2);
  await h.client.acquire({ providerId: "anthropic" });
  await h.stop();
  writeFileSync(join(dir, "leases.json"), '{"schemaVersion":1,"leases":[{"leaseId":');

  h = await start(dir);
  const status = await h.client.status();
  expect(status.providers[0]).toMatchObject({ limit: 2, active: 0 });
  expect(status.notices?.[0]).toMatch(/^Held leases file was corrupt .* moved aside/);
  const aside = readdirSync(dir).find((f) => /^leases\.corrupt-.*\.json$/.test(f));
  expect(statSync(join(dir, aside ?? "missing")).mode & 0o777).toBe(0o600);
});

test("waiters are answered with 503 when the host shuts down", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const h = await start(dir);
  await h.client.setLimit("anthropic", 1);
  await h.client.acquire({ providerId: "anthropic" });
  const waiting = h.client.acquire({ providerId: "anthropic" }).catch((e) => e as ApiError);
  await eventually(async () => expect((await h.client.leases("anthropic")).waiting).toHaveLength(1));
  await h.stop();
  t = undefined;
  const error = await waiting;
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(503);
});

test("an upstream typed in capitals is stored as the URL parser spells it and survives a restart", async () => {
  const dir = tempDir();
  dirs.push(dir);
  let h = await start(dir);
  await h.client.setLimit("anthropic", 2);
  const set = await h.client.setProvider("anthropic", { upstream: "HTTPS://API.Anthropic.com/" });
  expect(set.upstream).toBe("https://api.anthropic.com");
  await h.client.setLimit("anthropic", 3); // a later write must still reach the file
  await h.stop();
  h = await start(dir);
  expect(await h.client.provider("anthropic")).toMatchObject({ limit: 3, upstream: "https://api.anthropic.com" });
  expect((await h.client.status()).notices).toBeUndefined();
});
