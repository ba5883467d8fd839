// opencode (pinned in scripts/agent-clis.mjs) offline through the proxy with the window's
// config-file line: its Anthropic provider's base URL ends in /v1 (it appends /messages), the
// lease header rides `headroom run`'s slot; offline it needs OPENCODE_DISABLE_MODELS_FETCH=1,
// "autoupdate": false and Debian's ripgrep on PATH.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { setupLines } from "../../renderer/agent-lines";
import { cliEnv, spawnCli } from "../support/cli-harness";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { ANSWER, entryOf, gatedRun, modules, runProgram, useAgents } from "./agent-harness";

const { harness, freshHome } = useAgents();
// The platform binary itself: the package's launcher is put in place by a postinstall we skip.
const OPENCODE = join(modules, "opencode-linux-x64/bin/opencode");
const prompt = ["run", "-m", "anthropic/claude-sonnet-4-5", "hi"];

/** A home and a project folder holding the opencode.json the window shows. */
function opencodeSetup(h: ProxyHarness): { work: string; env: Record<string, string> } {
  const home = freshHome("headroom-opencode-");
  const work = join(home, "work");
  mkdirSync(work);
  const line = setupLines(h.providerId, "https://api.anthropic.com", h.proxyUrl).find((l) => l.what === "opencode")!;
  writeFileSync(join(work, "opencode.json"), line.text);
  return { work, env: { HOME: home, ANTHROPIC_API_KEY: "sk-ant-offline-dummy", OPENCODE_DISABLE_MODELS_FETCH: "1" } };
}

const messages = (h: ProxyHarness) => h.fake.stats.paths.filter((p) => p === "/v1/messages");

test("one prompt: its /v1/messages requests are gated and answered", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 0 } }));
  const { work, env } = opencodeSetup(h);
  const run = await gatedRun(h, () => runProgram(OPENCODE, prompt, env, work));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(messages(h).length).toBeGreaterThanOrEqual(1); // the answer, and a title for the session
  expect(h.fake.stats.paths.every((p) => p === "/v1/messages")).toBe(true);
  expect(h.fake.stats.lastHeaders?.["x-api-key"]).toBe("sk-ant-offline-dummy");
});

test("three at once at limit 1 are serialized: the fake provider never serves two", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 50 } }));
  const runs = await Promise.all([1, 2, 3].map(() => {
    const { work, env } = opencodeSetup(h);
    return runProgram(OPENCODE, prompt, env, work);
  }));
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
  expect(messages(h).length).toBeGreaterThanOrEqual(3);
  expect(h.fake.stats.maxConcurrent).toBe(1);
});

test("a 429 with retry-after 2 pauses the provider for 2 s; opencode's retry then succeeds", async () => {
  const h = harness(await startProxyHarness({ limit: 2, providerId: "anthropic", fake: { eventDelayMs: 0 } }));
  h.fake.script({ status: 429, headers: { "retry-after": "2" } });
  const { work, env } = opencodeSetup(h);
  const run = await runProgram(OPENCODE, prompt, env, work);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect((await h.client.history()).events.map((e) => e.message)).toContain("anthropic answered 429 (rate limited) and asked to retry after 2 s.");
  expect(h.fake.stats.rateLimited).toBe(1);
});

test("under headroom run at limit 1 the config file's lease header rides the run's slot: no deadlock", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 0 } }));
  const { work, env } = opencodeSetup(h);
  // opencode reads opencode.json from the folder it runs in: a shell takes it there.
  const command = ["/bin/sh", "-c", `cd '${work}' && exec '${OPENCODE}' ${prompt.join(" ")}`];
  const run = spawnCli(["run", "--provider", "anthropic", "--", ...command], cliEnv(h, { ...env, PATH: process.env.PATH ?? "" }));
  // `opencode run` reads a piped stdin to its end as more prompt (a terminal it leaves alone):
  // the test's pipe is closed, as `< /dev/null` would.
  run.child.stdin!.end();
  const exited = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve("deadlock"), 180_000))]);
  expect(exited, run.stderr()).toEqual({ code: 0, signal: null });
  expect(run.stdout().trim()).toBe(ANSWER);
  // At limit 1 the run holds the only slot: answered at all means each request rode on it. The
  // proxy keeps its own headers to itself.
  expect(messages(h).length).toBeGreaterThanOrEqual(1);
  expect(h.fake.stats.lastHeaders?.["x-headroom-lease"]).toBeUndefined();
  expect(await entryOf(h)).toMatchObject({ active: 0, queued: 0 });
});
