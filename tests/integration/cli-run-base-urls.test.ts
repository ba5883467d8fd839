// SPEC §6 "`headroom run` finds every base URL": stand-ins for aider (which only PyPI ships)
// read their base URL from OPENAI_API_BASE or --openai-api-base; under `headroom run` at
// limit 1 each rides the run's lease and completes instead of queueing behind it. (Both flag
// forms: tests/unit/lease-scope.test.ts; GOOGLE_GEMINI_BASE_URL: the real Gemini CLI in
// tests/agents.)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, test } from "vitest";
import { cliEnv, killStrayClis, spawnCli, type CliProcess } from "../support/cli-harness";
import { eventually, removeDir, tempDir } from "../support/test-host";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
const scripts = tempDir("headroom-stand-ins-");
afterAll(() => removeDir(scripts));
afterEach(async () => {
  killStrayClis();
  await h?.close();
  h = undefined;
});

// An agent that takes its base URL from a flag (either form) or a variable and posts there:
// a script file, so its flags are its own and not node's.
function agent(name: string, path: string, body: unknown): string[] {
  const file = join(scripts, `${name}.mjs`);
  writeFileSync(
    file,
    `const args = process.argv.slice(2); const at = args.indexOf("--openai-api-base"); ` +
      `const inline = args.find((a) => a.startsWith("--openai-api-base=")); ` +
      `const base = at >= 0 ? args[at + 1] : inline ? inline.slice(18) : process.env.OPENAI_API_BASE ?? process.env.GOOGLE_GEMINI_BASE_URL; ` +
      `fetch(base + ${JSON.stringify(path)}, { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(body))} })` +
      `.then((r) => { console.log(JSON.stringify({ status: r.status, base })); process.exit(r.status === 200 ? 0 : 1); })`,
  );
  return [process.execPath, file];
}
const chat = agent("chat", "/chat/completions", { model: "gpt-test", messages: [{ role: "user", content: "hi" }] });

/** What the agent saw, or a failure on a deadlock instead of a hang (two runs take the one slot in turn). */
async function finished(run: CliProcess): Promise<{ base: string }> {
  const exited = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve("deadlock"), 30_000))]);
  expect(exited, run.stderr()).toEqual({ code: 0, signal: null });
  return JSON.parse(run.stdout().trim()) as { base: string };
}

test("aider's OPENAI_API_BASE and --openai-api-base <url> at the proxy ride the run's lease at limit 1", async () => {
  h = await startProxyHarness({ limit: 1, providerId: "openai", fake: { eventDelayMs: 0 } });
  const v1 = `${h.base}/v1`;
  const byVariable = spawnCli(["run", "--provider", "openai", "--", ...chat], cliEnv(h, { OPENAI_API_BASE: v1 }));
  const byFlag = spawnCli(["run", "--provider", "openai", "--", ...chat, "--openai-api-base", v1], cliEnv(h));
  const [variable, flag] = await Promise.all([finished(byVariable), finished(byFlag)]);
  expect(variable.base).toMatch(new RegExp(`^${h.base}/_lease/[^/]+/v1$`));
  expect(flag.base).toMatch(new RegExp(`^${h.base}/_lease/[^/]+/v1$`));
  expect(h.fake.stats).toMatchObject({ generations: 2, maxConcurrent: 1 });
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
}, 60_000);

// Claude Code as `connect` leaves it: ANTHROPIC_BASE_URL comes from settings.json (here its
// argument), which wins over the run's rewritten variable; ANTHROPIC_CUSTOM_HEADERS is read as
// Claude Code reads it, one `Name: value` a line.
function claudeLike(): string[] {
  const file = join(scripts, "claude-like.mjs");
  writeFileSync(
    file,
    `const headers = { "content-type": "application/json" }; ` +
      `for (const line of (process.env.ANTHROPIC_CUSTOM_HEADERS ?? "").split(/\\r?\\n/)) { const at = line.indexOf(":"); if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim(); } ` +
      `fetch(process.argv[2] + "/v1/messages", { method: "POST", headers, body: JSON.stringify({ model: "claude-test", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }) })` +
      `.then((r) => { console.log(JSON.stringify({ status: r.status, base: process.argv[2] })); process.exit(r.status === 200 ? 0 : 1); })`,
  );
  return [process.execPath, file];
}

test("Claude Code whose settings.json names the proxy rides the run's lease by ANTHROPIC_CUSTOM_HEADERS: one slot at limit 1", async () => {
  h = await startProxyHarness({ limit: 1, fake: { eventDelayMs: 0 } });
  const env = cliEnv(h, { ANTHROPIC_CUSTOM_HEADERS: "x-team: blue" });
  const runs = [spawnCli(["run", "--provider", "anthropic", "--", ...claudeLike(), h.base], env), spawnCli(["run", "--provider", "anthropic", "--", ...claudeLike(), h.base], env)];
  const seen = await Promise.all(runs.map(finished));
  expect(seen.map((s) => s.base)).toEqual([h.base, h.base]); // the URL itself was never scoped
  expect(h.fake.stats).toMatchObject({ generations: 2, maxConcurrent: 1 });
  expect(h.fake.stats.lastHeaders?.["x-team"]).toBe("blue"); // the user's own header still goes
  expect(h.fake.stats.lastHeaders?.["x-headroom-lease"]).toBeUndefined(); // Headroom's stops at the proxy
  await eventually(async () => expect((await h!.client.status()).providers[0]).toMatchObject({ active: 0, queued: 0 }));
}, 60_000);
