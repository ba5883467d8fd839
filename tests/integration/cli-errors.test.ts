// What `headroom` says and exits with when it cannot do what was asked.
import { afterAll, beforeAll, expect, test } from "vitest";
import { cliEnv, closedPort, nodeScript, runCli } from "../support/cli-harness";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 1);
  await t.client.setLimit("openai", 2);
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

test("a host that is not running: says how to start it, exits 69", async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  for (const args of [["status"], ["run", "-p", "anthropic", "--", ...nodeScript(`console.log("ran")`)]]) {
    const result = await runCli(args, { HEADROOM_URL: url, HEADROOM_TOKEN: "x" });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(`Cannot reach Headroom at ${url}`);
    expect(result.stderr).toContain("npm run serve");
    expect(result.stdout).toBe("");
  }
});

test("a wrong token exits 77 and says where the token came from", async () => {
  const result = await runCli(["status"], cliEnv(t, { HEADROOM_TOKEN: "not-the-token" }));
  expect(result.code).toBe(77);
  expect(result.stderr).toMatch(/refused the request \(401\)/);
  expect(result.stderr).toContain("HEADROOM_TOKEN");
});

test("without HEADROOM_TOKEN the token is read from the data folder", async () => {
  const result = await runCli(["status", "--json"], cliEnv(t, { HEADROOM_TOKEN: "" }));
  expect(result.code).toBe(0);
  const empty = await runCli(["status"], { HEADROOM_URL: t.url, HEADROOM_DATA_DIR: `${t.dataDir}-missing` });
  expect(empty.code).toBe(77);
  expect(empty.stderr).toContain(`${t.dataDir}-missing`);
});

test("an unknown provider is named with the known ones, exits 64, and nothing runs", async () => {
  const result = await runCli(["run", "-p", "anthropc", "--", ...nodeScript(`console.log("ran")`)], cliEnv(t));
  expect(result.code).toBe(64);
  expect(result.stderr).toContain("Unknown provider anthropc (known providers: anthropic, openai)");
  expect(result.stderr).toContain("headroom providers add anthropc <limit>");
  expect(result.stdout).toBe("");
});

test("a queue timeout exits 75 without running the command and leaves the queue", async () => {
  const held = await t.client.acquire({ providerId: "anthropic" });
  try {
    const result = await runCli(
      ["run", "-p", "anthropic", "--timeout", "300ms", "--", ...nodeScript(`console.log("ran")`)],
      cliEnv(t),
    );
    expect(result.code).toBe(75);
    expect(result.stderr).toContain("No slot of anthropic became free within 300 ms");
    expect(result.stdout).toBe("");
    const entry = (await t.client.status()).providers.find((p) => p.providerId === "anthropic")!;
    expect(entry).toMatchObject({ queued: 0, active: 1 });
  } finally {
    await t.client.release(held.leaseId, "success");
  }
});

test("usage errors exit 64 with what is allowed, before anything is sent", async () => {
  // A dead host: a usage error that reached the network would exit 69 instead.
  const env = { HEADROOM_URL: `http://127.0.0.1:${await closedPort()}`, HEADROOM_TOKEN: "x" };
  const cases: [string[], string][] = [
    [["run", "--", "true"], "--provider is required"],
    [["run", "-p", "anthropic", "true"], "put the command after --"],
    [["run", "-p", "anthropic", "--"], "nothing to run"],
    [["run", "-p", "anthropic", "--timeout", "soon", "--", "true"], "--timeout must be a duration such as 500ms, 90s, 5m or 1h"],
    [["run", "-p", "Anthropic!", "--", "true"], "provider id must be 1 to 64 lowercase letters"],
    [["limit", "anthropic", "1.5"], "limit must be an integer from 1 to 10000 (got 1.5)"],
    [["cooldown", "anthropic", "soon"], 'cooldownMs must be an integer from 0 to 600000 (got "soon")'],
    [["providers", "upstream", "anthropic", "ftp://x"], "upstream must be an http:// or https:// URL"],
    [["status", "--bogus"], "Unknown option '--bogus'"],
    [["launch"], 'unknown command "launch"'],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
  cases.forEach(([args, message], i) => {
    expect({ args, code: results[i]!.code }).toEqual({ args, code: 64 });
    expect(results[i]!.stderr).toContain(message);
  });
});

test("--help works for the command and each subcommand, without a host", async () => {
  const [top, run, routes] = await Promise.all([
    runCli(["--help"], {}),
    runCli(["run", "--help"], {}),
    runCli(["help", "routes"], {}),
  ]);
  expect(top.code).toBe(0);
  expect(top.stdout).toContain("Usage: headroom <command>");
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Usage: headroom run --provider <id>");
  expect(routes.stdout).toContain("headroom routes reset <target> <runtime> <model>");
});
