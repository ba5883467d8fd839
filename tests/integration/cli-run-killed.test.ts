// `headroom run` killed with SIGKILL (no handler runs, no release is sent): its command must
// not run on without a slot, and the slot must come back by itself (SPEC §3, §6).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { RUN_LEASE_TTL_MS } from "../../cli/run/run-args";
import { cliEnv, killStrayClis, nodeScript, spawnCli } from "../support/cli-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost | undefined;
const dirs: string[] = [];
const commands: number[] = [];
afterEach(async () => {
  killStrayClis();
  for (const pid of commands.splice(0)) if (running(pid)) process.kill(pid, "SIGKILL");
  await t?.stop();
  if (t) removeDir(t.dataDir);
  t = undefined;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** Alive and not a zombie: an orphan whose new parent has not reaped it yet has finished too. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

test("kill -9 of the wrapper takes its command down with it, and the slot comes back within the 15 s TTL", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 1);
  await t.client.setCooldown("anthropic", 0);
  const dir = tempDir("headroom-killed-");
  dirs.push(dir);
  const pidFile = join(dir, "command.pid");
  // A command that would run for a minute.
  const script = `require("fs").writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setTimeout(()=>{},60000)`;
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(script)], cliEnv(t));
  await eventually(() => expect(existsSync(pidFile) && readFileSync(pidFile, "utf8")).toMatch(/^\d+$/), 10_000);
  const commandPid = Number(readFileSync(pidFile, "utf8"));
  commands.push(commandPid);
  expect(running(commandPid)).toBe(true);
  expect((await t.client.status()).providers[0]).toMatchObject({ active: 1 });

  cli.child.kill("SIGKILL");
  await cli.exited;

  await eventually(() => expect(running(commandPid)).toBe(false), 10_000);
  // No release was sent: the lease runs out its short TTL (not the host's 120 s) and frees the slot.
  await eventually(async () => expect((await t!.client.status()).providers[0]).toMatchObject({ active: 0 }), RUN_LEASE_TTL_MS + 10_000);
  const { events } = await t.client.history();
  expect(events.some((e) => e.kind === "lease_expired")).toBe(true);
  const next = await t.client.acquire({ providerId: "anthropic", timeoutMs: 1000 });
  expect(next.providerId).toBe("anthropic");
}, 60_000);

test("a command that ignores SIGTERM is killed once the grace after its wrapper's death is over", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 1);
  const dir = tempDir("headroom-killed-");
  dirs.push(dir);
  const pidFile = join(dir, "command.pid");
  const script = `process.on("SIGTERM",()=>{});require("fs").writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setTimeout(()=>{},60000)`;
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(script)], cliEnv(t));
  await eventually(() => expect(existsSync(pidFile) && readFileSync(pidFile, "utf8")).toMatch(/^\d+$/), 10_000);
  const commandPid = Number(readFileSync(pidFile, "utf8"));
  commands.push(commandPid);

  cli.child.kill("SIGKILL");
  await cli.exited;
  await eventually(() => expect(running(commandPid)).toBe(false), 15_000);
}, 30_000);
