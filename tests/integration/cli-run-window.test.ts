// SPEC §8: `headroom run` waits through a used-up plan window and starts its command at the
// reset (its lease is the probe that goes first), within its own deadline.
import { afterEach, expect, test } from "vitest";
import { cliEnv, killStrayClis, nodeScript, runCli } from "../support/cli-harness";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import * as recorded from "../fixtures/plan-window-headers";

let h: ProxyHarness | undefined;
afterEach(async () => {
  killStrayClis();
  await h?.close();
  h = undefined;
});

test("headroom run waits through a window pause and starts its command at the reset", async () => {
  h = await startProxyHarness({ limit: 2 });
  const resetAt = Math.ceil((Date.now() + 2_500) / 1000) * 1000;
  const resetS = String(resetAt / 1000);
  h.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "anthropic-ratelimit-unified-5h-reset": resetS, "anthropic-ratelimit-unified-reset": resetS },
  });
  const message = { model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
  expect((await post(`${h.base}/v1/messages`, message)).status).toBe(429);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: true, pausedUntil: resetAt });

  const run = await runCli(
    ["run", "--provider", "anthropic", "--timeout", "30s", "--", ...nodeScript("process.stdout.write(String(Date.now()))")],
    cliEnv(h),
  );
  expect(run.code).toBe(0);
  expect(Number(run.stdout)).toBeGreaterThanOrEqual(resetAt);
  // Its success was the probe's: the window reset and the provider admits again.
  const { events } = await h.client.history();
  expect(events.some((e) => e.kind === "window_reset")).toBe(true);
  expect((await h.client.status()).providers[0]).toMatchObject({ paused: false, active: 0 });
});
