// SPEC §1–§3 inputs a real server must refuse or honour: control characters in ids and
// reasons, malformed ids in the path, JSON nested too deep, the `abandoned` outcome,
// per-lease `ttlMs`, `responseTimeoutMs` and `shared` without Redis.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { rawRequest, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ leaseTtlMs: 60_000 });
  await t.client.setLimit("anthropic", 3);
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

function send(method: string, path: string, body?: string) {
  return rawRequest(t.url, {
    method,
    path,
    headers: { authorization: `Bearer ${t.host.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body }),
  });
}

/** The request line exactly as given: a URL parser would resolve `%2e%2e` before it is sent. */
function sendRawPath(method: string, path: string, body?: string): Promise<{ status: number; type: string; json: () => any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: "127.0.0.1", port: t.host.port, method, path, headers: { authorization: `Bearer ${t.host.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), json: () => JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe("control characters never reach the CLI or the log", () => {
  const route = { targetId: "anthropic", runtimeId: "http", modelId: "claude" };
  test.each([
    ["an agent id with ESC", () => t.client.acquire({ providerId: "anthropic", agentId: "evil\u001b[31m", timeoutMs: 0 }), "agentId"],
    ["an agent id with DEL", () => t.client.acquire({ providerId: "anthropic", agentId: "a\u007f", timeoutMs: 0 }), "agentId"],
    ["an agent id with a bidi override (U+202E)", () => t.client.acquire({ providerId: "anthropic", agentId: "evil\u202egnp", timeoutMs: 0 }), "agentId"],
    ["an agent id with a zero-width space (U+200B)", () => t.client.acquire({ providerId: "anthropic", agentId: "cla\u200bude", timeoutMs: 0 }), "agentId"],
    ["a model id with a C1 control (NEL)", () => t.client.routeAdmit({ ...route, modelId: "m\u0085" }, "run-1"), "modelId"],
    ["a run id with NUL", () => t.client.routeAdmit(route, "run\u0000"), "runId"],
    ["a reason with a newline", () => t.client.routeOutcome(route, "run-1", "failure", "line\nforged log line"), "reason"],
  ])("%s is 400 invalid_input naming the field", async (_name, call, field) => {
    const error = await refusal(call());
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(`${field} must be`);
    expect(error.message).toContain("without control characters");
  });

  test("printable Unicode in an agent id is fine", async () => {
    const lease = await t.client.acquire({ providerId: "anthropic", agentId: "claude — ünïcode", timeoutMs: 0 });
    expect((await t.client.leases("anthropic")).held.map((l) => l.agentId)).toContain("claude — ünïcode");
    await t.client.release(lease.leaseId, "success");
  });
});

describe("a malformed id in the path is 400 before any 404, never the window's HTML", () => {
  test.each([
    ["GET", "/concurrency/limits/"],
    ["GET", "/concurrency/limits/%2e%2e"],
    ["GET", "/concurrency/limits/%2E"],
    ["GET", "/concurrency/limits/.."],
    ["PUT", "/concurrency/cooldown/"],
    ["POST", "/concurrency/leases/%2e%2e/heartbeat"],
    ["DELETE", "/concurrency/leases/."],
    ["GET", "/concurrency/limits/%ZZ"],
    ["GET", "/concurrency/limits/a%1Bb"],
  ])("%s %s", async (method, path) => {
    const res = await sendRawPath(method, path, method === "PUT" ? '{"cooldownMs":5}' : undefined);
    expect(res.status).toBe(400);
    expect(res.type).toContain("application/json");
    expect(res.json().error.code).toBe("invalid_input");
  });

  test("an unknown but well-formed id is still 404", async () => {
    const res = await send("GET", "/concurrency/limits/nobody");
    expect(res.status).toBe(404);
    expect(res.json().error.code).toBe("unknown_provider");
  });
});

describe("JSON nested deeper than 64 levels", () => {
  test.each([65, 20_000])("%i levels are 400 and change nothing", async (depth) => {
    const body = `{"limit":${"[".repeat(depth)}1${"]".repeat(depth)}}`;
    const res = await send("PUT", "/concurrency/limits/anthropic", body);
    expect(res.status).toBe(400);
    expect(res.json().error).toEqual({ code: "invalid_input", message: "body must not nest deeper than 64 levels" });
    expect((await t.client.limit("anthropic")).limit).toBe(3);
  });
});

describe("release outcome abandoned", () => {
  test("is accepted, pauses nothing, and the slot recycles as usual", async () => {
    await t.client.setLimit("abandon", 1);
    await t.client.setCooldown("abandon", 60_000);
    const lease = await t.client.acquire({ providerId: "abandon", timeoutMs: 0 });
    expect(await t.client.release(lease.leaseId, "abandoned")).toEqual({ released: true });
    const entry = (await t.client.status()).providers.find((p) => p.providerId === "abandon");
    expect(entry).toMatchObject({ active: 0, recycling: 1, paused: false, autoReduced: false });
    const error = await refusal(t.client.acquire({ providerId: "abandon", timeoutMs: 0 }));
    expect(error.code).toBe("queue_timeout");
  });
});

describe("acquire ttlMs", () => {
  test("a lease expires its own ttlMs after admission; the host's leaseTtlMs otherwise", async () => {
    const short = await t.client.acquire({ providerId: "anthropic", ttlMs: 15_000, timeoutMs: 0 });
    expect(short.expiresAt! - short.admittedAt).toBe(15_000);
    const beat = await t.client.heartbeat(short.leaseId);
    expect(beat.expiresAt! - Date.now()).toBeLessThanOrEqual(15_000);
    expect(beat.expiresAt! - Date.now()).toBeGreaterThan(10_000);
    const usual = await t.client.acquire({ providerId: "anthropic", timeoutMs: 0 });
    expect(usual.expiresAt! - usual.admittedAt).toBe(60_000);
    await t.client.release(short.leaseId, "success");
    await t.client.release(usual.leaseId, "success");
  });

  test.each([4_999, 3_600_001, 10.5])("ttlMs %d is 400", async (ttlMs) => {
    const error = await refusal(t.client.acquire({ providerId: "anthropic", ttlMs, timeoutMs: 0 }));
    expect(error.status).toBe(400);
    expect(error.message).toContain("ttlMs must be an integer from 5000 to 3600000");
  });
});

describe("provider responseTimeoutMs and shared", () => {
  test("responseTimeoutMs defaults to 300000, is set, read back, and survives a restart", async () => {
    const dataDir = tempDir();
    let host = await startTestHost({ dataDir });
    try {
      await host.client.setLimit("slowai", 2);
      expect((await host.client.provider("slowai")).responseTimeoutMs).toBe(300_000);
      expect(await host.client.setProvider("slowai", { responseTimeoutMs: 900_000 })).toMatchObject({ responseTimeoutMs: 900_000 });
      await host.stop();
      host = await startTestHost({ dataDir });
      expect(await host.client.provider("slowai")).toMatchObject({ limit: 2, responseTimeoutMs: 900_000 });
    } finally {
      await host.stop();
      removeDir(dataDir);
    }
  });

  test.each([999, 3_600_001, "60000"])("responseTimeoutMs %j is 400", async (responseTimeoutMs) => {
    const res = await send("PUT", "/concurrency/providers/anthropic", JSON.stringify({ responseTimeoutMs }));
    expect(res.status).toBe(400);
    expect(res.json().error.message).toContain("responseTimeoutMs must be an integer from 1000 to 3600000");
  });

  test("shared: true without Redis is 400 naming HEADROOM_REDIS_URL; shared: false is fine", async () => {
    const res = await send("PUT", "/concurrency/providers/anthropic", '{"shared":true}');
    expect(res.status).toBe(400);
    expect(res.json().error.code).toBe("invalid_input");
    expect(res.json().error.message).toContain("HEADROOM_REDIS_URL");
    expect((await send("PUT", "/concurrency/providers/anthropic", '{"shared":false}')).status).toBe(200);
  });
});
