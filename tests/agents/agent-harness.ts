// What every real-agent test needs: the pinned CLIs' folder, a fresh home per run (no user
// config), the CLI as a child with only the environment given, and the proxy harness.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeAll, expect } from "vitest";
import { agentsDir, missingClis } from "../../scripts/agent-clis.mjs";
import type { ProxyHarness } from "../support/proxy-harness";
import { eventually, removeDir, tempDir } from "../support/test-host";

export const ANSWER = "Headroom keeps agents inside the";
export const modules = join(agentsDir(), "node_modules");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Registers the hooks: the CLIs must be installed; homes and the harness go after each test. */
export function useAgents(): { harness: (h: ProxyHarness) => ProxyHarness; freshHome: (prefix: string) => string } {
  let current: ProxyHarness | undefined;
  const homes: string[] = [];
  beforeAll(() => {
    const missing = missingClis();
    if (missing.length > 0) throw new Error(`${missing.join(", ")} not in ${agentsDir()}: run \`npm run agents:install\` once.`);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
    for (const home of homes.splice(0)) removeDir(home);
  });
  return {
    harness: (h) => (current = h),
    freshHome: (prefix) => {
      const home = tempDir(prefix);
      homes.push(home);
      return home;
    },
  };
}

/** A program as a child with only the environment given (and PATH). */
export function runProgram(program: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A Node CLI (its entry script) as a child. */
export const runCli = (args: string[], env: Record<string, string>, cwd: string): Promise<Run> => runProgram(process.execPath, args, env, cwd);

export const entryOf = async (h: ProxyHarness) => (await h.client.status()).providers.find((p) => p.providerId === h.providerId)!;

/** Takes the provider's only slot, starts the CLI, sees its request queue, then lets it through. */
export async function gatedRun(h: ProxyHarness, start: () => Promise<Run>): Promise<Run> {
  const lease = await h.client.acquire({ providerId: h.providerId, agentId: "blocker" });
  const running = start();
  await eventually(async () => expect(await entryOf(h)).toMatchObject({ queued: 1 }), 180_000);
  expect(h.fake.stats.generations).toBe(0);
  await h.client.release(lease.leaseId, "success");
  return running;
}
