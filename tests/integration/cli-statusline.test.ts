// SPEC §10 `headroom statusline`, the real command against a real host: Claude Code's input
// becomes window readings and one line; whatever goes wrong (no host, a stale lock, a refused
// port, a port that never answers, junk or no input, a wrong token) it still prints a line and
// exits 0; and the token goes only to the host the data folder's lock names.
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { closedPort, killStrayClis, spawnCli } from "../support/cli-harness";
import { removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  killStrayClis();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const hour = 3_600_000;
const fiveHourReset = Math.floor((Date.now() + 2 * hour) / 1000);
/** What Claude Code writes on a claude.ai login (fields as its docs and users' dumps show them). */
const claudeInput = JSON.stringify({
  session_id: "0b5c…",
  cwd: "/home/me/src/api",
  model: { id: "claude-opus-4-6", display_name: "Opus 4.6" },
  rate_limits: {
    five_hour: { used_percentage: 43, resets_at: fiveHourReset },
    seven_day: { used_percentage: 12.4, resets_at: fiveHourReset + 100 * 3600 },
  },
});

/** A host that answers is given time to: on a loaded machine it may take longer than 300 ms (speed is the bench's). */
const patient = (dataDir: string, extra: Record<string, string> = {}) => ({ HEADROOM_DATA_DIR: dataDir, HEADROOM_STATUSLINE_MS: "30000", ...extra });

async function host(): Promise<TestHost> {
  const t = await startTestHost();
  cleanups.push(async () => {
    await t.stop();
    removeDir(t.dataDir);
  });
  await t.client.setLimit("anthropic", 2);
  return t;
}

function folder(): string {
  const dir = tempDir("headroom-statusline-");
  cleanups.push(() => removeDir(dir));
  return dir;
}

/** The command as Claude Code runs it: input on stdin, then closed (unless `keepOpen`). */
async function statusline(args: string[], env: Record<string, string>, input: string, keepOpen = false) {
  const cli = spawnCli(["statusline", ...args], env);
  cli.child.stdin!.write(input);
  if (!keepOpen) cli.child.stdin!.end();
  const { code } = await cli.exited;
  return { code, line: cli.stdout(), stderr: cli.stderr() };
}

/** An HTTP listener that records every request's headers and answers 200 `{}`. */
async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

/** A lock as a running host writes it; this test process is the live pid. */
function writeLock(dir: string, url: string, pid = process.pid): void {
  writeFileSync(join(dir, "host.lock"), `${JSON.stringify({ pid, kind: "serve", url, startedAt: Date.now() })}\n`);
  writeFileSync(join(dir, "api-token"), "the-token\n");
}

test("Claude Code's rate limits reach the host as windows and come back in one line; the token goes to the lock's host only", async () => {
  const t = await host();
  const elsewhere = await recorder();
  // HEADROOM_URL names another listener: the status line goes by the lock, not by it.
  const { code, line } = await statusline(["--provider", "anthropic"], patient(t.dataDir, { HEADROOM_URL: elsewhere.url }), claudeInput);
  expect(code).toBe(0);
  expect(line).toMatch(/^anthropic 0\/2 · 5h 43% ↻\d\d:\d\d · 7d 12%\n$/);
  const entry = (await t.client.status()).providers.find((p) => p.providerId === "anthropic")!;
  expect(entry.windows?.find((w) => w.name === "5h")).toMatchObject({ usedPercent: 43, resetsAt: fiveHourReset * 1000 });
  expect(entry.paused).toBe(false);
  expect(elsewhere.seen).toEqual([]);
});

test("--then runs the previous status line with the same input; its output follows Headroom's", async () => {
  const t = await host();
  const previous = `"${process.execPath}" -e "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>console.log('['+JSON.parse(s).model.display_name+']'))"`;
  const { code, line } = await statusline(["--provider", "anthropic", "--then", previous], patient(t.dataDir), claudeInput);
  expect(code).toBe(0);
  expect(line).toMatch(/^anthropic 0\/2 · 5h 43% .* \[Opus 4\.6\]\n$/);
});

test("input it does not understand, or none, still shows the provider's line; ANTHROPIC_BASE_URL names the provider", async () => {
  const t = await host();
  await t.client.setLimit("work", 3);
  for (const input of ["", "{not json", "[1,2]", JSON.stringify({ rate_limits: { five_hour: { used_percentage: "lots" } } })]) {
    const { code, line } = await statusline([], patient(t.dataDir, { ANTHROPIC_BASE_URL: "http://127.0.0.1:7412/work" }), input);
    expect(code, input).toBe(0);
    expect(line, input).toBe("work 0/3\n");
  }
});

test("a wrong token, an unknown provider: a line that says so, exit 0", async () => {
  const t = await host();
  const refused = await statusline([], patient(t.dataDir, { HEADROOM_TOKEN: "wrong" }), claudeInput);
  expect(refused).toMatchObject({ code: 0, line: "Headroom: token refused\n" });
  const unknown = await statusline(["--provider", "nobody"], patient(t.dataDir), claudeInput);
  expect(unknown).toMatchObject({ code: 0, line: "Headroom: no provider nobody\n" });
});

test("no host: no lock, or a lock whose process is gone — nothing is sent, even to a listener at the lock's address", async () => {
  const empty = folder();
  expect(await statusline([], { HEADROOM_DATA_DIR: empty }, claudeInput)).toMatchObject({ code: 0, line: "Headroom not running\n" });

  const stale = folder();
  const listener = await recorder();
  writeLock(stale, listener.url, 2 ** 22 + 12_345); // above Linux's pid_max default: no such process
  expect(await statusline([], { HEADROOM_DATA_DIR: stale }, claudeInput)).toMatchObject({ code: 0, line: "Headroom not running\n" });
  expect(listener.seen).toEqual([]);
});

test("a lock naming a refused port, or a port that never answers: a line and exit 0 all the same", async () => {
  const refusedDir = folder();
  writeLock(refusedDir, `http://127.0.0.1:${await closedPort()}`);
  expect(await statusline([], { HEADROOM_DATA_DIR: refusedDir }, claudeInput)).toMatchObject({ code: 0, line: "Headroom not running\n" });

  const sockets: Socket[] = [];
  const silent: Server = createTcpServer((socket) => sockets.push(socket)); // accepts, never answers
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const silentDir = folder();
  writeLock(silentDir, `http://127.0.0.1:${(silent.address() as { port: number }).port}`);
  expect(await statusline([], { HEADROOM_DATA_DIR: silentDir }, claudeInput)).toMatchObject({ code: 0, line: "Headroom: no answer\n" });
  // Input that never ends is no reason to wait either.
  expect(await statusline([], { HEADROOM_DATA_DIR: silentDir }, '{"rate_limits":', true)).toMatchObject({ code: 0 });
});
