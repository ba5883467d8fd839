// Claude Code and Codex, installed from the npm registry and run offline with the setup lines
// the README shows, each sending one real request through the proxy to the fake provider: the
// request waits in Headroom's queue while the only slot is taken, then is answered. The
// settings come from renderer/agent-lines.ts, so the lines the window shows are the ones run.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { baseUrlLine, codexArgs } from "../../renderer/agent-lines";
import { agentsDir, missingClis } from "../../scripts/agent-clis.mjs";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { eventually, removeDir, tempDir } from "../support/test-host";

const ANSWER = "Headroom keeps agents inside the";
const modules = join(agentsDir(), "node_modules");

let h: ProxyHarness | undefined;
const homes: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const home of homes.splice(0)) removeDir(home);
});

function freshHome(prefix: string): string {
  const home = tempDir(prefix);
  homes.push(home);
  return home;
}

beforeAll(() => {
  const missing = missingClis();
  if (missing.length > 0) throw new Error(`${missing.join(", ")} not in ${agentsDir()}: run \`npm run agents:install\` once.`);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as a child with only the environment given (a fresh home: no user config). */
function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Takes the provider's only slot, starts the CLI, sees its request queue, then lets it through. */
async function gatedRun(h: ProxyHarness, start: () => Promise<Run>): Promise<Run> {
  const lease = await h.client.acquire({ providerId: h.providerId, agentId: "blocker" });
  const running = start();
  await eventually(async () => expect((await h.client.status()).providers.find((p) => p.providerId === h.providerId)).toMatchObject({ queued: 1 }), 60_000);
  expect(h.fake.stats.generations).toBe(0);
  await h.client.release(lease.leaseId, "success");
  return running;
}

test("Claude Code with ANTHROPIC_BASE_URL=<proxy>/anthropic: one request, gated, answered", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 0 } });
  const home = freshHome("headroom-claude-");
  const [name, value] = baseUrlLine("anthropic", "https://api.anthropic.com", h.proxyUrl).split("=") as [string, string];
  expect(name).toBe("ANTHROPIC_BASE_URL");
  const run = await gatedRun(h, () =>
    runCli([join(modules, "@anthropic-ai/claude-code/cli-wrapper.cjs"), "-p", "hi"], {
      HOME: home,
      [name]: value,
      ANTHROPIC_API_KEY: "sk-ant-offline-dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    }, home),
  );
  expect(run.stderr).toBe("");
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(run.code).toBe(0);
  expect(h.fake.stats.generations).toBe(1);
  expect(h.fake.stats.lastHeaders?.["x-api-key"]).toBe("sk-ant-offline-dummy");
});

test("Codex with a model_providers entry (wire_api responses): one HTTP request, gated, answered, no WebSocket", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai", fake: { eventDelayMs: 0 } });
  const home = freshHome("headroom-codex-");
  const work = join(home, "work");
  mkdirSync(work);
  const run = await gatedRun(h, () =>
    runCli(
      [join(modules, "@openai/codex/bin/codex.js"), "exec", "--skip-git-repo-check", ...codexArgs(`${h!.base}/v1`), "hi"],
      { HOME: home, CODEX_HOME: home, OPENAI_API_KEY: "sk-offline-dummy" },
      work,
    ),
  );
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(h.fake.stats.lastPath).toBe("/v1/responses");
  expect(h.fake.stats.lastHeaders?.authorization).toBe("Bearer sk-offline-dummy");
  // Every request Codex sent was the one POST: no WebSocket attempt on /v1/responses.
  expect(h.fake.stats).toMatchObject({ requests: 1, generations: 1 });
});
