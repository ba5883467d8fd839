import { afterEach, expect, test, vi } from "vitest";
import { rawRequest } from "../support/test-host";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const body = JSON.stringify({ model: "claude-test", messages: [] });

test("a request carrying an Origin header is refused with 403: no web page can drive the proxy", async () => {
  h = await startProxyHarness();
  const answer = await rawRequest(h.proxyUrl, {
    method: "POST",
    path: "/anthropic/v1/messages",
    headers: { origin: "https://evil.example", "content-type": "application/json" },
    body,
  });
  expect(answer.status).toBe(403);
  expect(answer.json()).toMatchObject({ type: "error", error: { type: "permission_error" } });
  expect(answer.headers["x-headroom-error"]).toBe("forbidden_origin");
  expect(h.fake.stats.requests).toBe(0);
});

test("a foreign Host header is refused with 403 (DNS rebinding)", async () => {
  h = await startProxyHarness();
  const answer = await rawRequest(h.proxyUrl, {
    method: "POST",
    path: "/anthropic/v1/messages",
    headers: { host: "attacker.example:7412", "content-type": "application/json" },
    body,
  });
  expect(answer.status).toBe(403);
  expect(answer.headers["x-headroom-error"]).toBe("forbidden_host");
  const ok = await rawRequest(h.proxyUrl, { method: "GET", path: "/anthropic/v1/models", headers: { host: "localhost" } });
  expect(ok.status).toBe(200);
  expect(h.fake.stats.requests).toBe(1);
});

test("a body over 32 MiB gets 413 and never reaches the upstream or the queue", async () => {
  h = await startProxyHarness();
  const big = Buffer.alloc(32 * 1024 * 1024 + 1, "a");
  const declared = await rawRequest(h.proxyUrl, {
    method: "POST",
    path: "/anthropic/v1/messages",
    headers: { "content-type": "application/json" },
    body: big,
  });
  expect(declared.status).toBe(413);
  expect(declared.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
  expect(h.fake.stats.requests).toBe(0);
  // Exactly 32 MiB is still accepted.
  const fits = JSON.stringify({ model: "m", pad: "x".repeat(32 * 1024 * 1024 - 30) });
  expect(Buffer.byteLength(fits)).toBeLessThanOrEqual(32 * 1024 * 1024);
  expect((await post(`${h.base}/v1/chat/completions`, JSON.parse(fits))).status).toBe(200);
});

test("credentials reach the upstream untouched and never appear in any log line", async () => {
  const lines: string[] = [];
  const capture = (...args: unknown[]) => void lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
  for (const method of ["log", "error", "warn", "info", "debug"] as const) vi.spyOn(console, method).mockImplementation(capture);
  h = await startProxyHarness({ host: { log: (message, state) => capture(message, state) } });
  const secret = "sk-ant-SECRET-0123456789";
  const headers = { "x-api-key": secret, authorization: `Bearer ${secret}` };

  expect((await post(`${h.base}/v1/messages`, { model: "m" }, headers)).status).toBe(200);
  expect(h.fake.stats.lastHeaders).toMatchObject({ "x-api-key": secret, authorization: `Bearer ${secret}` });
  h.fake.script({ status: 429, headers: { "retry-after": "0" } }, 529);
  await post(`${h.base}/v1/messages`, { model: "m" }, headers);
  await post(`${h.base}/v1/messages`, { model: "m" }, headers);
  await fetch(`${h.base}/v1/models?key=${secret}`, { headers });
  await h.client.setProvider(h.providerId, { upstream: "http://127.0.0.1:9" });
  await h.client.routeReset({ targetId: h.providerId, runtimeId: "http", modelId: "m" });
  expect((await post(`${h.base}/v1/messages`, { model: "m" }, headers)).status).toBe(502);

  expect(lines.some((line) => line.includes("upstream connection failed"))).toBe(true); // logging did happen
  expect(lines.join("\n")).not.toContain("SECRET");
});
