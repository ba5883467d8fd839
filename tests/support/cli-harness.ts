// Spawns the real `headroom` command (bin/headroom.js, running the bundle tests/support/build-cli.ts
// builds before the run) against a real host.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import type { TestHost } from "./test-host";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "headroom.js");

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment pointing at `host`, with nothing inherited that could point elsewhere. */
export function cliEnv(host: Pick<TestHost, "url" | "dataDir" | "host">, extra: Record<string, string> = {}) {
  return { HEADROOM_URL: host.url, HEADROOM_TOKEN: host.host.token, HEADROOM_DATA_DIR: host.dataDir, ...extra };
}

const running = new Set<ChildProcess>();

/** For afterEach: a failed test must not leave a CLI waiting or running behind it. */
export function killStrayClis(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** util-linux `script`, which gives the CLI a pseudo-terminal; absent on some systems. */
export const SCRIPT = "/usr/bin/script";

export function spawnCli(args: string[], env: Record<string, string | undefined>, options: { terminal?: boolean } = {}): CliProcess {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("HEADROOM_")));
  const argv = [process.execPath, BIN, ...args];
  const [program, ...rest] = options.terminal
    ? [SCRIPT, "-qec", argv.map(shellQuote).join(" "), "/dev/null"]
    : argv;
  const child = spawn(program!, rest, {
    cwd: ROOT,
    env: { ...base, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  child.stderr!.on("data", (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const cli = spawnCli(args, env);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** A loopback port nothing listens on (taken, then given back). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `node -e <script>` as the command after `--`. */
export const nodeScript = (script: string): string[] => [process.execPath, "-e", script];
