// SPEC §10: `POST /concurrency/providers/:id/windows`, the windows a client read for itself
// (Claude Code's status line). Through a real host and proxy in front of the fake provider:
// posted windows show and feed the hold, never pause the provider or answer a probe, never
// replace what the proxy read more recently, and junk is refused with what is allowed.
import { afterEach, expect, test } from "vitest";
import * as recorded from "../fixtures/plan-window-headers";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { eventually, rawRequest } from "../support/test-host";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
const ok = { type: "message", content: [{ type: "text", text: "hi" }] };
const epochS = (ms: number) => String(Math.ceil(ms / 1000));
const hour = 3_600_000;
const windowOf = async (name: string) => (await h!.client.status()).providers[0]!.windows?.find((w) => w.name === name);

test("posted windows show on the provider's status, which the post answers", async () => {
  h = await startProxyHarness({ limit: 3 });
  const fiveHourReset = Math.round((Date.now() + 2 * hour) / 1000) * 1000;
  const entry = await h.client.reportWindows("anthropic", [
    { name: "5h", usedPercent: 43, resetsAt: fiveHourReset },
    { name: "7d", usedPercent: 12.345 },
  ]);
  expect(entry).toMatchObject({ providerId: "anthropic", limit: 3, active: 0, queued: 0, paused: false });
  expect(entry.windows?.find((w) => w.name === "5h")).toMatchObject({ usedPercent: 43, resetsAt: fiveHourReset });
  expect(entry.windows?.find((w) => w.name === "7d")).toMatchObject({ usedPercent: 12.35 });
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 43 });
});

test("a used-up window posted by a client never pauses the provider; the hold still reads it", async () => {
  h = await startProxyHarness({ limit: 2 });
  const entry = await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 100, resetsAt: Date.now() + hour }]);
  expect(entry.paused).toBe(false);
  h.fake.script({ status: 200, body: ok });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect((await h.client.history()).events.some((e) => e.kind === "window_exhausted")).toBe(false);

  await h.client.setProvider("anthropic", { holdNewAtPercent: 90 });
  await expect(h.client.acquire({ providerId: "anthropic", agentId: "new", timeoutMs: 0 })).rejects.toMatchObject({ status: 408 });
});

test("a post older than what the proxy read is ignored: an earlier reset, or less used in the same period", async () => {
  h = await startProxyHarness({ limit: 2 });
  const resetAt = Math.ceil((Date.now() + 2 * hour) / 1000) * 1000;
  h.fake.script({
    status: 200,
    body: ok,
    headers: {
      "anthropic-ratelimit-unified-status": "allowed",
      "anthropic-ratelimit-unified-5h-status": "allowed_warning",
      "anthropic-ratelimit-unified-5h-utilization": "0.5",
      "anthropic-ratelimit-unified-5h-reset": epochS(resetAt),
    },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(200);
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 50, status: "warning", resetsAt: resetAt });

  await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 40, resetsAt: resetAt }]);
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 50 });
  await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 95, resetsAt: resetAt - 5 * hour }]);
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 50, resetsAt: resetAt });

  // More used in the same period is newer; the proxy's status for the period stays.
  await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 61, resetsAt: resetAt }]);
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 61, status: "warning", resetsAt: resetAt });
  // A later reset is a new period, however little is used.
  await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 2, resetsAt: resetAt + 5 * hour }]);
  expect(await windowOf("5h")).toMatchObject({ usedPercent: 2, resetsAt: resetAt + 5 * hour });
  expect((await windowOf("5h"))?.status).toBeUndefined();
});

test("a posted reading is no answer to the probe at a window's reset: the others keep waiting for it", async () => {
  h = await startProxyHarness({ limit: 3 });
  const resetAt = Math.ceil((Date.now() + 1_500) / 1000) * 1000;
  h.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "anthropic-ratelimit-unified-5h-reset": epochS(resetAt), "anthropic-ratelimit-unified-reset": epochS(resetAt) },
    body: { type: "error", error: { type: "rate_limit_error", message: "5-hour limit reached" } },
  });
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  const probe = await h.client.acquire({ providerId: "anthropic", agentId: "probe", timeoutMs: 30_000 });
  const behind = h.client.acquire({ providerId: "anthropic", agentId: "behind", timeoutMs: 30_000 });
  await eventually(async () => expect((await h!.client.status()).providers[0]!.queued).toBe(1), 10_000);

  const entry = await h.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 3, resetsAt: resetAt + 5 * hour }]);
  expect(entry.queued).toBe(1);
  expect(entry.waitReason).toBe("one request goes first: the 5-hour window just reset");
  await h.client.release(probe.leaseId, "success");
  await h.client.release((await behind).leaseId, "success");
});

test("junk is 400 naming what is allowed, an unknown provider 404, no token 401; nothing is taken", async () => {
  h = await startProxyHarness({ limit: 2 });
  const send = (path: string, body: unknown, token = h!.host.token) =>
    rawRequest(h!.url, {
      method: "POST",
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const path = "/concurrency/providers/anthropic/windows";
  const cases: [unknown, RegExp][] = [
    [{ windows: [{ name: "5h", usedPercent: 150 }] }, /windows\.0\.usedPercent must be a number from 0 to 100 \(got 150\)/],
    [{ windows: [{ name: "5 hours", usedPercent: 10 }] }, /windows\.0\.name must be 1 to 32 lowercase letters/],
    [{ windows: [{ name: "5h", usedPercent: 10, resetsAt: "soon" }] }, /windows\.0\.resetsAt must be a time in epoch milliseconds/],
    [{ windows: [{ name: "5h", usedPercent: 10, utilization: 0.1 }] }, /utilization/],
    [{ windows: [] }, /windows must be a list of 1 to 8 windows/],
    [{ windows: Array.from({ length: 9 }, (_, i) => ({ name: `w${i}`, usedPercent: 1 })) }, /windows must be a list of 1 to 8/],
    [{ rate_limits: {} }, /windows/],
    ["{not json", /JSON/i],
  ];
  for (const [body, message] of cases) {
    const answer = await send(path, body);
    expect(answer.status, JSON.stringify(body)).toBe(400);
    expect(answer.json().error.code).toBe("invalid_input");
    expect(answer.json().error.message).toMatch(message);
  }
  const unknown = await send("/concurrency/providers/nobody/windows", { windows: [{ name: "5h", usedPercent: 1 }] });
  expect(unknown.status).toBe(404);
  expect(unknown.json().error.message).toContain("anthropic");
  expect((await send(path, { windows: [{ name: "5h", usedPercent: 1 }] }, "wrong")).status).toBe(401);
  expect(await windowOf("5h")).toBeUndefined();
});
