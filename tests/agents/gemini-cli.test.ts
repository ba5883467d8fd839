// Gemini CLI (pinned in scripts/agent-clis.mjs) offline through the proxy with the window's
// setup lines: GOOGLE_GEMINI_BASE_URL plus the settings.json auth type its auth check needs.
// What the fake provider saw is asserted: one streamGenerateContent per prompt, never two at
// once at limit 1, and a 429 whose RetryInfo says 2 s pausing the provider for that long.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { googleErrorBody } from "../../demo/fake-gemini";
import { GEMINI_SETTINGS, setupLines } from "../../renderer/agent-lines";
import { cliEnv, spawnCli } from "../support/cli-harness";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { ANSWER, entryOf, gatedRun, modules, runCli, useAgents } from "./agent-harness";

const { harness, freshHome } = useAgents();
const GEMINI = join(modules, "@google/gemini-cli/bundle/gemini.js");
const UPSTREAM = "https://generativelanguage.googleapis.com";
// An explicit model: without one Gemini CLI first asks a router model for JSON the fake does not give.
const prompt = ["-m", "gemini-2.5-flash", "-p", "hi"];

/** A home with Gemini CLI's settings, and the environment the setup line gives it. */
function geminiEnv(h: ProxyHarness): { home: string; env: Record<string, string> } {
  const home = freshHome("headroom-gemini-");
  mkdirSync(join(home, ".gemini"));
  const [base, settings] = setupLines(h.providerId, UPSTREAM, h.proxyUrl);
  expect(JSON.parse(settings!.text)).toEqual(GEMINI_SETTINGS);
  writeFileSync(join(home, ".gemini", "settings.json"), settings!.text);
  const [name, value] = base!.text.split("=") as [string, string];
  expect(name).toBe("GOOGLE_GEMINI_BASE_URL");
  return { home, env: { HOME: home, [name]: value, GEMINI_API_KEY: "offline-dummy", GEMINI_CLI_TRUST_WORKSPACE: "true" } };
}

const generations = (h: ProxyHarness) => h.fake.stats.paths.filter((p) => /:(streamG|g)enerateContent/.test(p));

test("one prompt: its streamGenerateContent waits for the slot, then is answered", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "gemini", fake: { eventDelayMs: 0 } }));
  const { home, env } = geminiEnv(h);
  const run = await gatedRun(h, () => runCli([GEMINI, ...prompt], env, home));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(generations(h)).toEqual(["/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"]);
  expect(h.fake.stats.lastHeaders?.["x-goog-api-key"]).toBe("offline-dummy");
  expect((await h.client.routes()).routes.map((r) => r.modelId)).toEqual(["gemini-2.5-flash"]);
});

test("three at once at limit 1 are serialized: the fake provider never serves two", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "gemini", fake: { eventDelayMs: 50 } }));
  const runs = await Promise.all([1, 2, 3].map(() => {
    const { home, env } = geminiEnv(h);
    return runCli([GEMINI, ...prompt], env, home);
  }));
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
  expect(generations(h)).toHaveLength(3);
  expect(h.fake.stats.maxConcurrent).toBe(1);
});

test("a 429 with RetryInfo retryDelay 2s pauses the provider for 2 s; Gemini CLI's retry then succeeds", async () => {
  const h = harness(await startProxyHarness({ limit: 2, providerId: "gemini", fake: { eventDelayMs: 0 } }));
  h.fake.script({ status: 429, body: googleErrorBody(429, "Resource has been exhausted", "2s") });
  const { home, env } = geminiEnv(h);
  const run = await runCli([GEMINI, ...prompt], env, home);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  const events = (await h.client.history()).events.map((e) => e.message);
  expect(events).toContain("gemini answered 429 (rate limited) and asked to retry after 2 s.");
  expect(h.fake.stats.rateLimited).toBe(1);
  expect(generations(h).length).toBeGreaterThanOrEqual(2);
});

test("under headroom run at limit 1 its requests ride the run's lease: no deadlock", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "gemini", fake: { eventDelayMs: 0 } }));
  const { env } = geminiEnv(h);
  const run = spawnCli(["run", "--provider", "gemini", "--", process.execPath, GEMINI, ...prompt], cliEnv(h, { ...env, PATH: process.env.PATH ?? "" }));
  const exited = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve("deadlock"), 180_000))]);
  expect(exited, run.stderr()).toEqual({ code: 0, signal: null });
  expect(run.stdout().trim()).toBe(ANSWER);
  expect(generations(h)[0]).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
  expect(await entryOf(h)).toMatchObject({ active: 0, queued: 0 });
});
