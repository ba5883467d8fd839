// SPEC §8 "Nothing lost to a window": `headroom run --resume` against a real host and a fake
// provider whose 5-hour window is used up and resets a few seconds later. The agent is a
// stand-in named `claude` (a script on PATH that records its arguments and posts one message
// through the run's base URL), so the resume form is Claude Code's; the real CLIs are
// tests/agents/'s.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { cliEnv, killStrayClis, runCli, spawnCli } from "../support/cli-harness";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import * as recorded from "../fixtures/plan-window-headers";

let h: ProxyHarness | undefined;
let dir: string | undefined;
afterEach(async () => {
  killStrayClis();
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}, 60_000);

const AGENT = `
const fs = require("node:fs");
fs.appendFileSync(process.env.FAKE_AGENT_LOG, JSON.stringify(process.argv.slice(2)) + "\\n");
const body = JSON.stringify({ model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
fetch(process.env.ANTHROPIC_BASE_URL + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body })
  .then((r) => r.text().then((text) => { console.error("API " + r.status + " " + text); process.exit(r.status === 200 ? 0 : 1); }));
`;

/** A folder on PATH with `name` in it: the stand-in agent. */
function standIn(name: string): { path: string; log: string } {
  dir = mkdtempSync(join(tmpdir(), "headroom-resume-"));
  const script = join(dir, "agent.cjs");
  writeFileSync(script, AGENT);
  const bin = join(dir, name);
  writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
  chmodSync(bin, 0o755);
  return { path: `${dir}:${process.env.PATH}`, log: join(dir, "calls.log") };
}

const calls = (log: string): string[][] =>
  readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as string[]);

/** The next request is refused by the 5-hour window, which resets `inMs` from now. */
function windowRefuses(harness: ProxyHarness, inMs: number): number {
  const resetAt = Math.ceil((Date.now() + inMs) / 1000) * 1000;
  const resetS = String(resetAt / 1000);
  harness.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "anthropic-ratelimit-unified-5h-reset": resetS, "anthropic-ratelimit-unified-reset": resetS },
    body: { type: "error", error: { type: "rate_limit_error", message: "5-hour limit reached" } },
  });
  return resetAt;
}

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never saw ${what}`);
}

test("claude -p stopped by a used-up window waits as a resuming waiter and goes on with --resume <its session> after the reset", async () => {
  h = await startProxyHarness({ limit: 1 });
  const harness = h;
  const agent = standIn("claude");
  const resetAt = windowRefuses(harness, 3_000);
  const run = spawnCli(
    ["run", "--provider", "anthropic", "--resume", "--", "claude", "-p", "fix the failing test"],
    cliEnv(harness, { PATH: agent.path, ANTHROPIC_BASE_URL: harness.base, FAKE_AGENT_LOG: agent.log }),
  );
  // While it waits: the leases answer, the status and GET /agents show a resuming waiter.
  const waiter = await until(async () => (await harness.client.leases("anthropic")).waiting.find((w) => w.resuming), "a resuming waiter");
  expect(waiter).toMatchObject({ agentId: "claude", position: 1 });
  expect(waiter.waitReason).toMatch(/^resumes after the 5-hour window resets at \d\d:\d\d$/);
  const paused = (await harness.client.status()).providers[0]!;
  expect(paused).toMatchObject({ active: 0, queued: 1, paused: true, pauseKind: "window" });
  expect(paused.stoppedAgents).toHaveLength(1); // who stopped on the window: the stand-in claude
  const { agents } = await harness.client.agents();
  expect(agents.find((a) => a.state === "waiting")).toMatchObject({ resuming: true });

  const { code } = await run.exited;
  expect(code, run.stderr()).toBe(0);
  expect(run.stderr()).toMatch(/headroom: anthropic's 5-hour window is used up; claude resumes after \d\d:\d\d \(Ctrl-C stops\)/);
  expect(run.stderr()).toContain("headroom: resuming claude (1 of 3)");
  expect(Date.now()).toBeGreaterThanOrEqual(resetAt);
  const [first, second] = calls(agent.log);
  expect(first?.slice(0, 2)).toEqual(["--session-id", expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  expect(second).toEqual(["--resume", first![1], "-p", "fix the failing test"]);
  const { events } = await harness.client.history();
  expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(["window_exhausted", "resumed", "window_reset"]));
  expect(events.find((e) => e.kind === "window_reset")?.message).toBe(
    `anthropic's 5-hour window reset; agents are admitted again. Stopped on it: ${paused.stoppedAgents![0]} (1 runs with --resume and goes on by itself)`,
  );
  // The slot went back as abandoned: no reduction, nothing left held or waiting.
  expect((await harness.client.status()).providers[0]).toMatchObject({ limit: 1, autoReduced: false, active: 0, queued: 0 });
}, 60_000);

test("SIGTERM while waiting ends the run with the child's last status and leaves no waiter behind", async () => {
  h = await startProxyHarness({ limit: 1 });
  const harness = h;
  const agent = standIn("some-agent");
  windowRefuses(harness, 60_000);
  const run = spawnCli(
    ["run", "--provider", "anthropic", "--resume", "--max-resumes", "2", "--", "some-agent", "--task", "x"],
    cliEnv(harness, { PATH: agent.path, ANTHROPIC_BASE_URL: harness.base, FAKE_AGENT_LOG: agent.log }),
  );
  await until(async () => (await harness.client.leases("anthropic")).waiting.find((w) => w.resuming), "a resuming waiter");
  run.child.kill("SIGTERM");
  const { code } = await run.exited;
  expect(code).toBe(1); // the agent's own status: it exited 1 on the refusal
  await until(async () => ((await harness.client.leases("anthropic")).waiting.length === 0 ? true : undefined), "the waiter leave");
  expect((await harness.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 });
  expect(calls(agent.log)).toEqual([["--task", "x"]]); // any other command runs again unchanged, had it resumed
}, 60_000);

test("a killed run leaves no resuming waiter behind", async () => {
  h = await startProxyHarness({ limit: 1 });
  const harness = h;
  const agent = standIn("some-agent");
  windowRefuses(harness, 60_000);
  const run = spawnCli(
    ["run", "--provider", "anthropic", "--resume", "--", "some-agent"],
    cliEnv(harness, { PATH: agent.path, ANTHROPIC_BASE_URL: harness.base, FAKE_AGENT_LOG: agent.log }),
  );
  await until(async () => (await harness.client.leases("anthropic")).waiting.find((w) => w.resuming), "a resuming waiter");
  run.child.kill("SIGKILL");
  await run.exited;
  await until(async () => ((await harness.client.leases("anthropic")).waiting.length === 0 ? true : undefined), "the waiter leave");
  expect((await harness.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 });
}, 60_000);

test("--max-resumes outside 1..20, or without --resume, is a usage error naming what is allowed", async () => {
  h = await startProxyHarness({ limit: 1 });
  for (const [args, words] of [
    [["--resume", "--max-resumes", "0"], "--max-resumes must be a whole number from 1 to 20"],
    [["--resume", "--max-resumes", "21"], "--max-resumes must be a whole number from 1 to 20"],
    [["--max-resumes", "3"], "--max-resumes needs --resume"],
  ] as const) {
    const result = await runCli(["run", "--provider", "anthropic", ...args, "--", "true"], cliEnv(h));
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(words);
  }
}, 60_000);
