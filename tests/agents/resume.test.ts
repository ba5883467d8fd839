// SPEC §8 "Nothing lost to a window" with the real agents: `headroom run --resume -- claude -p …`
// and `-- codex exec …` against the fake provider, whose plan window is used up (a 429 with the
// window's headers, as tests/integration/cli-run-resume.test.ts scripts it) and resets ~15 s
// later. Each run gives its slot back, waits as a resuming waiter, then starts the agent's own
// resume form (cli/run/resume-forms.ts); the fake sees the continued conversation — the resumed
// request carries the first run's turn — and the run exits 0.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { cliEnv, killStrayClis, spawnCli, type CliProcess } from "../support/cli-harness";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import * as recorded from "../fixtures/plan-window-headers";
import { modules, useAgents } from "./agent-harness";

const { harness, freshHome } = useAgents();
const RESET_IN_MS = 15_000;

/** `name` on PATH as its user has it, started in `work` (its sessions are kept per folder). */
function onPath(home: string, name: string, entry: string, work: string): string {
  const bin = join(home, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), `#!/bin/sh\ncd '${work}' && exec '${process.execPath}' '${entry}' "$@"\n`);
  chmodSync(join(bin, name), 0o755);
  return `${bin}:${process.env.PATH}`;
}

const resetSeconds = () => Math.ceil((Date.now() + RESET_IN_MS) / 1000);

/** The run's resuming waiter; what the run said, and the fake saw, if it never shows. */
async function resumingWaiter(h: ProxyHarness, run: CliProcess) {
  let exited = false;
  void run.exited.then(() => (exited = true));
  for (let i = 0; i < 1_200 && !exited; i++) {
    const waiter = (await h.client.leases(h.providerId)).waiting.find((w) => w.resuming);
    if (waiter) return waiter;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const status = JSON.stringify((await h.client.status()).providers[0]);
  throw new Error(`never saw a resuming waiter (exited: ${exited}; fake: ${h.fake.stats.paths.join(" ")}; ${status})\n${run.stderr()}\n${run.stdout()}`);
}

/** Every text in a request body (messages, or a Responses `input`), as one string per item. */
const turns = (body: Record<string, unknown>): string[] =>
  ((body.messages ?? body.input ?? []) as unknown[]).map((item) => JSON.stringify(item));

test("claude -p stopped by a used-up 5-hour window resumes its own session (--resume <uuid>) after the reset", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 0 } }));
  const home = freshHome("headroom-resume-claude-");
  const work = join(home, "work");
  mkdirSync(work);
  const reset = String(resetSeconds());
  h.fake.script({
    status: 429,
    headers: { ...recorded.anthropicFiveHourRejected, "retry-after": String(RESET_IN_MS / 1000), "anthropic-ratelimit-unified-5h-reset": reset, "anthropic-ratelimit-unified-reset": reset },
    body: { type: "error", error: { type: "rate_limit_error", message: "5-hour limit reached" } },
  });
  const prompt = "remember the word pineapple";
  const run = spawnCli(
    ["run", "--provider", "anthropic", "--resume", "--", "claude", "-p", prompt],
    cliEnv(h, {
      PATH: onPath(home, "claude", join(modules, "@anthropic-ai/claude-code/cli-wrapper.cjs"), work),
      HOME: home,
      CLAUDE_CONFIG_DIR: undefined,
      ANTHROPIC_BASE_URL: h.base,
      ANTHROPIC_API_KEY: "sk-ant-offline-dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      // Claude Code with an API key retries a 429 itself (10 times, backing off): across a reset
      // 15 s away it goes on by itself, through the proxy, and never stops on the window.
      CLAUDE_CODE_MAX_RETRIES: "0",
    } as unknown as Record<string, string>),
  );
  run.child.stdin!.end(); // as from a script: no stdin (codex exec would read it as more prompt)
  try {
    expect(await resumingWaiter(h, run)).toMatchObject({ agentId: "claude", position: 1 });
    const beforeReset = h.fake.stats.generations;
    const { code } = await run.exited;
    const said = run.stderr() + run.stdout();
    expect(code, said).toBe(0);
    expect(run.stderr()).toMatch(/headroom: anthropic's 5-hour window is used up; claude resumes after \d\d:\d\d/);
    expect(run.stderr()).toContain("headroom: resuming claude (1 of 3)");
    // The refused request, any retries Claude Code made of it itself, then the resumed one.
    const bodies = h.fake.stats.bodies.filter((b) => turns(b).some((t) => t.includes(prompt)));
    const resumed = bodies.at(-1)!;
    expect(h.fake.stats.generations).toBeGreaterThan(beforeReset);
    // Claude Code 2.1.332 keeps no turn whose request was refused: after `--resume <uuid>` the
    // prompt, given again by the resume form, is
    // asked once — nothing is lost, nothing is asked twice.
    expect(turns(resumed).filter((t) => t.includes(prompt)), bodies.length === 0 ? "no request carried the prompt" : "").toHaveLength(1);
    console.log(`claude: ${beforeReset} request(s) before the waiter (retries of the 429: ${beforeReset - 1}); resumed with ${turns(resumed).length} turns`);
  } finally {
    killStrayClis();
  }
});

test("codex exec stopped by a used-up primary window resumes its session (exec … resume <id> <prompt>) after the reset", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "openai", fake: { eventDelayMs: 0 } }));
  const home = freshHome("headroom-resume-codex-");
  const work = join(home, "work");
  mkdirSync(work);
  h.fake.script({
    status: 429,
    headers: { ...recorded.codexUsageLimit.headers, "x-codex-primary-reset-at": String(resetSeconds()) },
    body: { error: { ...recorded.codexUsageLimit.body.error, resets_at: resetSeconds() } },
  });
  // As `headroom connect codex` writes it: the lease rides in a header named from the environment.
  const entry = `{name="Headroom",base_url="${h.base}/v1",wire_api="responses",env_key="OPENAI_API_KEY",env_http_headers={"x-headroom-lease"="HEADROOM_LEASE_ID"}}`;
  const prompt = "remember the word pineapple";
  const run = spawnCli(
    ["run", "--provider", "openai", "--resume", "--", "codex", "exec", "--skip-git-repo-check", "-c", "model_provider=headroom", "-c", `model_providers.headroom=${entry}`, prompt],
    cliEnv(h, {
      PATH: onPath(home, "codex", join(modules, "@openai/codex/bin/codex.js"), work),
      HOME: home,
      CODEX_HOME: home,
      OPENAI_API_KEY: "sk-offline-dummy",
    }),
  );
  run.child.stdin!.end(); // as from a script: no stdin (codex exec would read it as more prompt)
  try {
    expect(await resumingWaiter(h, run)).toMatchObject({ agentId: "codex", position: 1 });
    const beforeReset = h.fake.stats.generations;
    const { code } = await run.exited;
    const said = run.stderr() + run.stdout();
    expect(code, said).toBe(0);
    expect(run.stderr()).toMatch(/headroom: openai's .* is used up; codex resumes after \d\d:\d\d/);
    expect(run.stderr()).toContain("headroom: resuming codex (1 of 3)");
    const bodies = h.fake.stats.bodies.filter((b) => turns(b).some((t) => t.includes(prompt)));
    const first = bodies[0]!;
    const resumed = bodies.at(-1)!;
    const seen = bodies.map((b) => turns(b).map((t) => t.slice(0, 80)).join(" | ")).join("\n");
    expect(turns(resumed).length, seen).toBeGreaterThan(turns(first).length);
    expect(turns(resumed).filter((t) => t.includes(prompt)).length).toBeGreaterThanOrEqual(2);
    console.log(`codex: ${beforeReset} request(s) before the waiter (retries of the 429: ${beforeReset - 1}); resumed with ${turns(resumed).length} turns`);
  } finally {
    killStrayClis();
  }
});
