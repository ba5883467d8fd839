// A server under test in a Node process of its own, so it has its own event loop, as in
// real use. It is stopped at the end whatever happens: stop() in the bench's finally, and
// an 'exit' hook in case the bench process dies first.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { withinTime } from "./deadline";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const START_TIME_LIMIT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

export interface ServerProcess {
  /** The URL the server printed when it was ready. */
  url: string;
  /** For its CPU time and memory, read from /proc. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs `node --import tsx <script> ...args` from the repo root and resolves once a stdout line
 * matches `ready` (its first group is the URL); rejects with the stderr tail if it exits first.
 */
export async function startServerProcess(
  script: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    await stopChild(child);
  };
  try {
    const url = await withinTime(readyUrl(child, ready), START_TIME_LIMIT_MS, `${script} start`);
    return { url, pid: child.pid ?? 0, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function readyUrl(child: ChildProcess, ready: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const url = ready.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    // Keep reading both pipes for the process's whole life: a full pipe would block it.
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      reject(new Error(`server exited (${signal ?? `code ${code}`}) before it was ready: ${stderr.trim() || stdout.trim()}`));
    });
  });
}

/** SIGTERM for a clean shutdown, SIGKILL if it has not gone after a grace period. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
