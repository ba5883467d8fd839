// `headroom run` against a real host: gating, exit status and how the outcome is classified.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { cliEnv, killStrayClis, nodeScript, runCli, SCRIPT, spawnCli } from "../support/cli-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost;
let dir: string;
beforeEach(async () => {
  t = await startTestHost();
  dir = tempDir("headroom-cli-");
  await t.client.setLimit("anthropic", 1);
  await t.client.setCooldown("anthropic", 0);
});
afterEach(async () => {
  killStrayClis();
  await t.stop();
  removeDir(t.dataDir);
  removeDir(dir);
});

const entry = async () => (await t.client.status()).providers.find((p) => p.providerId === "anthropic")!;

test("two runs on a limit of 1 run one after the other, the second waiting in line", async () => {
  const log = join(dir, "runs.log");
  const lines = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
  // Each command logs its start, then holds its slot until the test creates its "go" file.
  const child = (name: string) =>
    nodeScript(
      `const fs=require("fs");fs.appendFileSync(${JSON.stringify(log)},"start ${name}\\n");` +
        `const t=setInterval(()=>{if(fs.existsSync(${JSON.stringify(join(dir, `go-${name}`))})){clearInterval(t);` +
        `fs.appendFileSync(${JSON.stringify(log)},"end ${name}\\n")}},20)`,
    );
  const env = cliEnv(t);
  const a = spawnCli(["run", "--provider", "anthropic", "--agent", "a", "--", ...child("a")], env);
  const b = spawnCli(["run", "--provider", "anthropic", "--agent", "b", "--", ...child("b")], env);

  // One runs, the other waits in line and says so.
  await eventually(async () => expect(await entry()).toMatchObject({ active: 1, queued: 1 }), 10_000);
  await eventually(() => expect(a.stderr() + b.stderr()).toMatch(/waiting for a slot on anthropic: position 1 of 1 \(1\/1 active\)/), 10_000);
  await eventually(() => expect(lines()).toHaveLength(1));
  const first = lines()[0]!.split(" ")[1]!;
  const second = first === "a" ? "b" : "a";
  expect(lines()).toEqual([`start ${first}`]);

  writeFileSync(join(dir, `go-${first}`), "");
  await eventually(() => expect(lines()).toEqual([`start ${first}`, `end ${first}`, `start ${second}`]), 10_000);
  writeFileSync(join(dir, `go-${second}`), "");
  const [ea, eb] = await Promise.all([a.exited, b.exited]);
  expect([ea.code, eb.code]).toEqual([0, 0]);
  expect(lines()).toEqual([`start ${first}`, `end ${first}`, `start ${second}`, `end ${second}`]);
  expect((await entry()).active).toBe(0);
});

test("the command's exit status passes through and its output reaches ours", async () => {
  const result = await runCli(
    ["run", "-p", "anthropic", "--", ...nodeScript(`console.log("to stdout");console.error("to stderr");process.exit(3)`)],
    cliEnv(t),
  );
  expect(result.code).toBe(3);
  expect(result.stdout).toBe("to stdout\n");
  expect(result.stderr).toContain("to stderr\n");
  const after = await entry();
  expect(after.active).toBe(0);
  expect(after.paused).toBe(false);
});

test("a reader that leaves early (| head) neither kills the run nor keeps the slot", async () => {
  const cli = spawnCli(
    ["run", "-p", "anthropic", "--", ...nodeScript(`let i=0;const t=setInterval(()=>{console.log("line "+i++);if(i===40){clearInterval(t);process.exit(4)}},10)`)],
    cliEnv(t),
  );
  await eventually(() => expect(cli.stdout()).toContain("line 1"));
  cli.child.stdout!.destroy(); // like `head -2` closing the pipe
  const { code } = await cli.exited;
  expect(code).toBe(4);
  expect((await entry()).active).toBe(0);
});

test("a rate-limit marker in the output pauses the provider for the Retry-After it names", async () => {
  await t.client.setLimit("anthropic", 2);
  const before = Date.now();
  const result = await runCli(
    ["run", "-p", "anthropic", "--", ...nodeScript(`console.error("Error: 429 Too Many Requests, retry-after: 7");process.exit(1)`)],
    cliEnv(t),
  );
  const after = Date.now();
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("Error: 429 Too Many Requests, retry-after: 7");
  const status = await entry();
  expect(status.paused).toBe(true);
  expect(status.pausedUntil!).toBeGreaterThanOrEqual(before + 7000);
  expect(status.pausedUntil!).toBeLessThanOrEqual(after + 7000);
  expect(status.limit).toBe(1);
  expect(status.autoReduced).toBe(true);
  expect(status.active).toBe(0);
});

test("a bare retry-after without a marker is a plain failure: no pause, no reduction", async () => {
  await t.client.setLimit("anthropic", 2);
  const result = await runCli(
    ["run", "-p", "anthropic", "--", ...nodeScript(`console.log("503 Service Unavailable, retry-after: 5");process.exit(1)`)],
    cliEnv(t),
  );
  expect(result.code).toBe(1);
  const status = await entry();
  expect(status).toMatchObject({ paused: false, limit: 2, autoReduced: false, active: 0 });
});

test("a command that cannot be found exits 127 and gives the slot back", async () => {
  const result = await runCli(["run", "-p", "anthropic", "--", "headroom-test-no-such-command"], cliEnv(t));
  expect(result.code).toBe(127);
  expect(result.stderr).toContain("command not found: headroom-test-no-such-command");
  expect((await entry()).active).toBe(0);
});

// Skipped where /usr/bin/script (util-linux's, which gives the CLI a real pseudo-terminal) is not
// installed, as in a minimal container; it runs wherever it is, the development machine included.
test.skipIf(!existsSync(SCRIPT))("on a terminal the wait is one line rewritten in place and the command keeps the terminal", async () => {
  const held = await t.client.acquire({ providerId: "anthropic" });
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(`console.log("tty:"+process.stdout.isTTY)`)], cliEnv(t), {
    terminal: true,
  });
  await eventually(() => expect(cli.stdout()).toContain("\r\x1b[2Kheadroom: waiting for a slot on anthropic: position 1 of 1"), 5000);
  await t.client.release(held.leaseId, "success");
  expect((await cli.exited).code).toBe(0);
  expect(cli.stdout()).toContain("tty:true");
  // The pty turns "\n" into "\r\n"; an in-place line is followed by "\r\x1b[2K" instead.
  expect(cli.stdout()).not.toMatch(/position 1 of 1 \(1\/1 active\)\r?\n/);
});
