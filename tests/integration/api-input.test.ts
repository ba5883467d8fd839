import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rawRequest, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 3);
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

function send(method: string, path: string, body: string | Buffer) {
  return rawRequest(t.url, {
    method,
    path,
    headers: { authorization: `Bearer ${t.host.token}`, "content-type": "application/json" },
    body,
  });
}

const cases: [string, string, string, string][] = [
  ["PUT", "/concurrency/limits/anthropic", "{not json", "JSON"],
  ["PUT", "/concurrency/limits/anthropic", "[]", "body must be a JSON object"],
  ["PUT", "/concurrency/limits/anthropic", '{"limit":"4"}', "limit must be an integer from 1 to 10000"],
  ["PUT", "/concurrency/limits/anthropic", '{"limit":1.5}', "(got 1.5)"],
  ["PUT", "/concurrency/limits/anthropic", '{"limit":0}', "limit must be an integer from 1 to 10000 (got 0)"],
  ["PUT", "/concurrency/limits/anthropic", '{"limit":10001}', "(got 10001)"],
  ["PUT", "/concurrency/cooldown/anthropic", '{"cooldownMs":-1}', "cooldownMs must be an integer from 0 to 600000"],
  ["PUT", "/concurrency/cooldown/anthropic", '{"cooldownMs":600001}', "cooldownMs"],
  ["PUT", "/concurrency/providers/anthropic", '{"upstream":"ftp://x"}', "upstream must be an http:// or https:// URL"],
  ["PUT", "/concurrency/providers/anthropic", '{"usageGate":{"url":"http://127.0.0.1:1/u","pollMs":10}}', "usageGate.pollMs"],
  ["POST", "/concurrency/acquire", '{"providerId":"Bad Id"}', "providerId must be"],
  ["POST", "/concurrency/acquire", '{"providerId":"anthropic","timeoutMs":-5}', "timeoutMs"],
  ["POST", "/concurrency/acquire", '{"providerId":"anthropic","agentId":42}', "agentId"],
  ["POST", "/concurrency/leases/abc/release", '{"outcome":"maybe"}', "outcome must be one of success, failure, rate_limited"],
  ["POST", "/concurrency/leases/abc/release", '{"outcome":"rate_limited","retryAfterMs":1.2}', "retryAfterMs"],
  ["PUT", "/routes/settings", '{"threshold":0}', "threshold must be an integer from 1 to 1000"],
  ["PUT", "/routes/settings", "{}", "threshold, cooldownMs or both"],
  ["PUT", "/routes/settings", '{"treshold":2}', "treshold is not a field of body; the fields allowed are threshold, cooldownMs"],
  ["POST", "/routes/admit", '{"targetId":"a","runtimeId":"b","modelId":"c"}', "runId"],
  ["POST", "/routes/outcome", '{"targetId":"a","runtimeId":"b","modelId":"c","runId":"r","outcome":"bad"}', "outcome must be one of success, failure, neutral"],
];

describe("bad input gets a 400 naming the field, and changes nothing", () => {
  test.each(cases)("%s %s %s", async (method, path, body, expected) => {
    const before = await t.client.status();
    const routesBefore = await t.client.routes();
    const res = await send(method, path, body);
    expect(res.status).toBe(400);
    expect(res.json().error.code).toBe("invalid_input");
    expect(res.json().error.message).toContain(expected);
    expect(await t.client.status()).toEqual(before);
    expect(await t.client.routes()).toEqual(routesBefore);
  });

  test("a body over 1 MiB is 413 and changes nothing", async () => {
    const big = JSON.stringify({ limit: 5, pad: "x".repeat(1024 * 1024) });
    const res = await send("PUT", "/concurrency/limits/anthropic", big);
    expect(res.status).toBe(413);
    expect(res.json().error.code).toBe("payload_too_large");
    expect((await t.client.limit("anthropic")).limit).toBe(3);
  });
});
