import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { rawRequest, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const auth = () => ({ authorization: `Bearer ${t.host.token}` });

describe("access", () => {
  test("health answers without a token; the API does not", async () => {
    const health = await rawRequest(t.url, { path: "/health" });
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ ok: true, version: "0.0.0-test" });
    const status = await rawRequest(t.url, { path: "/concurrency/status" });
    expect(status.status).toBe(401);
    expect(status.json().error.code).toBe("unauthorized");
    const wrong = await rawRequest(t.url, { path: "/concurrency/status", headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  test("a foreign Host header is refused before anything else (DNS rebinding)", async () => {
    for (const path of ["/health", "/concurrency/status"]) {
      const res = await rawRequest(t.url, { path, headers: { host: "evil.example:7411", ...auth() } });
      expect(res.status).toBe(403);
      expect(res.json().error.code).toBe("forbidden_host");
    }
    const ok = await rawRequest(t.url, { path: "/concurrency/status", headers: { host: "localhost:7411", ...auth() } });
    expect(ok.status).toBe(200);
  });

  test("an unknown path is 404 and a wrong method is 405, both with an error body", async () => {
    const missing = await rawRequest(t.url, { path: "/nope/nothing", headers: auth() });
    expect(missing.status).toBe(404);
    const wrongMethod = await rawRequest(t.url, { method: "POST", path: "/concurrency/status", headers: auth() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET");
  });
});

describe("providers", () => {
  test("PUT limits creates a provider with the default 350 ms cooldown", async () => {
    expect(await t.client.setLimit("anthropic", 4)).toEqual({ providerId: "anthropic", limit: 4 });
    expect(await t.client.limits()).toEqual({ limits: [{ providerId: "anthropic", limit: 4 }] });
    expect(await t.client.cooldown("anthropic")).toEqual({ providerId: "anthropic", cooldownMs: 350 });
    const { providers } = await t.client.status();
    expect(providers).toEqual([
      {
        providerId: "anthropic",
        limit: 4,
        active: 0,
        queued: 0,
        paused: false,
        cooldownMs: 350,
        autoReduced: false,
        noticeDismissed: false,
        recycling: 0,
      },
    ]);
  });

  test("only PUT limits creates: every other endpoint answers 404 listing the known ids", async () => {
    await t.client.setLimit("openai", 2);
    const attempts = [
      () => t.client.limit("anthropic"),
      () => t.client.cooldown("anthropic"),
      () => t.client.setCooldown("anthropic", 100),
      () => t.client.provider("anthropic"),
      () => t.client.leases("anthropic"),
      () => t.client.resume("anthropic"),
      () => t.client.dismissNotice("anthropic"),
      () => t.client.acquire({ providerId: "anthropic" }),
      () => t.client.removeProvider("anthropic"),
    ];
    for (const attempt of attempts) {
      const error = (await attempt().catch((e) => e)) as ApiError;
      expect(error.status).toBe(404);
      expect(error.code).toBe("unknown_provider");
      expect(error.message).toContain("openai");
    }
    expect((await t.client.status()).providers.map((p) => p.providerId)).toEqual(["openai"]);
  });

  test("a malformed provider id is 400 before any 404", async () => {
    const res = await rawRequest(t.url, { path: "/concurrency/limits/Bad%20Id", headers: auth() });
    expect(res.status).toBe(400);
    expect(res.json().error.message).toContain("providerId");
  });

  test("cooldown set over HTTP is read back and shown in status", async () => {
    await t.client.setLimit("anthropic", 2);
    expect(await t.client.setCooldown("anthropic", 0)).toEqual({ providerId: "anthropic", cooldownMs: 0 });
    expect((await t.client.status()).providers[0]?.cooldownMs).toBe(0);
  });

  test("provider config: upstream and usage gate are set, read and cleared with null", async () => {
    await t.client.setLimit("anthropic", 2);
    const set = await t.client.setProvider("anthropic", {
      upstream: "https://api.anthropic.com/",
      usageGate: { url: "http://127.0.0.1:9/usage", pollMs: 1000 },
    });
    expect(set).toEqual({
      providerId: "anthropic",
      limit: 2,
      cooldownMs: 350,
      responseTimeoutMs: 300_000,
      waitForResetMs: 120_000,
      overage: "allow",
      upstream: "https://api.anthropic.com",
      usageGate: { url: "http://127.0.0.1:9/usage", pollMs: 1000 },
    });
    const cleared = await t.client.setProvider("anthropic", { upstream: null, usageGate: null });
    expect(cleared).toEqual({ providerId: "anthropic", limit: 2, cooldownMs: 350, responseTimeoutMs: 300_000, waitForResetMs: 120_000, overage: "allow" });
  });

  test("DELETE removes a provider and answers its waiters with 404", async () => {
    await t.client.setLimit("anthropic", 1);
    await t.client.acquire({ providerId: "anthropic" });
    const waiting = t.client.acquire({ providerId: "anthropic" }).catch((e) => e as ApiError);
    await expectQueued(1);
    expect(await t.client.removeProvider("anthropic")).toEqual({ removed: true });
    const error = await waiting;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((await t.client.status()).providers).toEqual([]);
  });
});

async function expectQueued(n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const entry = (await t.client.status()).providers[0];
    if (entry?.queued === n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`queue never reached ${n}`);
}

test("host info tells the window where agents reach this host", async () => {
  const info = await t.client.hostInfo();
  expect(info).toEqual({ apiUrl: t.url, version: "0.0.0-test", hostName: info.hostName });
  expect(info.hostName).toMatch(/.+/); // SPEC §3: always named, also without Redis
});
