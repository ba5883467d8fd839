// `headroom agents` and `headroom usage` against a real host that proxied real requests.
import { afterEach, expect, test } from "vitest";
import { cliEnv, runCli } from "../support/cli-harness";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const message = { model: "claude-test", max_tokens: 8, stream: true, messages: [{ role: "user", content: "hi" }] };

test("agents and usage print tables, --json the API's answer, and a bad --hours is a usage error", async () => {
  h = await startProxyHarness({ fake: { events: 3, eventDelayMs: 0 } });
  const env = cliEnv(h);
  expect((await runCli(["agents"], env)).stdout).toBe("No agent seen in the last hour.\n");
  await post(`${h.base}/v1/messages`, message, { "x-headroom-agent": "reviewer" });

  const agents = await runCli(["agents"], env);
  expect(agents.code).toBe(0);
  expect(agents.stdout).toMatch(/^AGENT\s+PROVIDER\s+STATE\s+SEEN\s+PID\s+REQUESTS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\n/);
  expect(agents.stdout).toMatch(/\nreviewer\s+anthropic\s+idle\s+.+? ago\s+-\s+1\s+10\s+3\s+0\s+0\n/);

  const usage = await runCli(["usage", "--by", "model", "--hours", "24"], env);
  expect(usage.stdout).toMatch(/^MODEL\s+REQUESTS\s+429S\s+ERRORS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\nclaude-test\s+1\s+0\s+0\s+10\s+3\s+0\s+0\n/);
  const json = JSON.parse((await runCli(["usage", "--json"], env)).stdout) as { rows: unknown[] };
  expect(json.rows).toEqual([{ agent: "reviewer", requests: 1, rateLimited: 0, errors: 0, tokens: { input: 10, output: 3, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, unpriced: 1 }]);

  const bad = await runCli(["usage", "--hours", "0"], env);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toMatch(/hours must be an integer from 1 to 192/);
});
