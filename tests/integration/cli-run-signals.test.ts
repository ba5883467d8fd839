// `headroom run` gives its slot back however it is stopped, and keeps it while the command runs.
import { afterEach, expect, test } from "vitest";
import { RUN_LEASE_TTL_MS } from "../../cli/run/run-args";
import { cliEnv, killStrayClis, nodeScript, spawnCli } from "../support/cli-harness";
import { eventually, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost | undefined;
afterEach(async () => {
  killStrayClis();
  await t?.stop();
  if (t) removeDir(t.dataDir);
  t = undefined;
});

async function host(): Promise<TestHost> {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 1);
  await t.client.setCooldown("anthropic", 0);
  return t;
}

const entry = async (h: TestHost) => (await h.client.status()).providers.find((p) => p.providerId === "anthropic")!;

// Bounded, so a failing test cannot leave it running for ever.
const RUNS_UNTIL_KILLED = `console.log("started");setTimeout(()=>process.exit(9),15000)`;

test("SIGINT to the CLI while its command runs ends the command and releases the slot", async () => {
  const h = await host();
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(RUNS_UNTIL_KILLED)], cliEnv(h));
  await eventually(() => expect(cli.stdout()).toContain("started"), 5000);
  expect((await entry(h)).active).toBe(1);
  cli.child.kill("SIGINT");
  expect((await cli.exited).code).toBe(130);
  expect((await entry(h)).active).toBe(0);
});

test("SIGTERM is forwarded to the command, whose exit status becomes ours, and the slot is released", async () => {
  const h = await host();
  const script = `process.on("SIGTERM",()=>{console.log("child got SIGTERM");process.exit(42)});${RUNS_UNTIL_KILLED}`;
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(script)], cliEnv(h));
  await eventually(() => expect(cli.stdout()).toContain("started"), 5000);
  cli.child.kill("SIGTERM");
  expect((await cli.exited).code).toBe(42);
  expect(cli.stdout()).toContain("child got SIGTERM");
  expect((await entry(h)).active).toBe(0);
});

test("a command that ignores SIGTERM is killed when asked a second time, and the slot is released", async () => {
  const h = await host();
  const script = `process.on("SIGTERM",()=>console.log("ignored"));${RUNS_UNTIL_KILLED}`;
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(script)], cliEnv(h));
  await eventually(() => expect(cli.stdout()).toContain("started"), 5000);
  cli.child.kill("SIGTERM");
  await eventually(() => expect(cli.stdout()).toContain("ignored"), 5000);
  cli.child.kill("SIGTERM");
  expect((await cli.exited).code).toBe(137); // 128 + SIGKILL
  expect((await entry(h)).active).toBe(0);
});

test("SIGINT while waiting in the queue leaves the queue without running the command", async () => {
  const h = await host();
  const held = await h.client.acquire({ providerId: "anthropic" });
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(`console.log("ran")`)], cliEnv(h));
  await eventually(async () => expect((await entry(h)).queued).toBe(1), 5000);
  cli.child.kill("SIGINT");
  expect((await cli.exited).code).toBe(130);
  expect(cli.stdout()).toBe("");
  expect(await entry(h)).toMatchObject({ queued: 0, active: 1 });
  await h.client.release(held.leaseId, "success");
  expect((await entry(h)).active).toBe(0);
});

test("headroom run holds a 15 s lease and heartbeats it, so a long command keeps its slot", async () => {
  const h = await host();
  // Runs until it reads "go" on stdin, which it shares with the CLI.
  const script = `console.log("ready");process.stdin.on("data",(d)=>{if(String(d).includes("go"))process.exit(0)});setTimeout(()=>process.exit(9),30000)`;
  const cli = spawnCli(["run", "-p", "anthropic", "--", ...nodeScript(script)], cliEnv(h));
  await eventually(() => expect(cli.stdout()).toContain("ready"), 5000);
  const [lease] = (await h.client.leases("anthropic")).held;
  expect(lease!.expiresAt! - lease!.admittedAt).toBe(RUN_LEASE_TTL_MS);
  // A heartbeat every third of the TTL (5 s) moves the expiry on before it is reached.
  await eventually(async () => expect((await h.client.leases("anthropic")).held[0]!.expiresAt).toBeGreaterThan(lease!.expiresAt!), 12_000);
  expect((await h.client.history()).events.filter((e) => e.kind === "lease_expired")).toEqual([]);
  cli.child.stdin!.write("go\n");
  expect((await cli.exited).code).toBe(0);
  expect((await entry(h)).active).toBe(0);
}, 30_000);
