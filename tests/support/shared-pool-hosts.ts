// Host processes for the shared pool's cross-process tests (shared-pool-worker.ts), and a
// provider that counts how many calls it holds at once: the limit a user would notice.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface CountingProvider {
  url: string;
  seen: { current: number; most: number; calls: number; byHost: Map<string, number> };
  close(): Promise<void>;
}

/** Each call is held 3–10 ms, so the hosts' lanes really overlap. */
export async function countingProvider(): Promise<CountingProvider> {
  const seen: CountingProvider["seen"] = { current: 0, most: 0, calls: 0, byHost: new Map() };
  const server: Server = createServer((request, response) => {
    const host = new URL(request.url ?? "/", "http://x").searchParams.get("host") ?? "?";
    seen.current++;
    seen.calls++;
    seen.most = Math.max(seen.most, seen.current);
    seen.byHost.set(host, (seen.byHost.get(host) ?? 0) + 1);
    setTimeout(() => {
      seen.current--;
      response.end("ok");
    }, 3 + Math.floor(Math.random() * 8));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface HostRun {
  host: string;
  admitted: number;
  failures: number;
  /** Releases Redis answered "not held": a lost or doubled release. */
  refused: number;
}

export interface HostOptions {
  redisUrl: string;
  prefix: string;
  host: string;
  limit: number;
  target: string;
  count: number;
  lanes: number;
}

/**
 * Runs one host process to the end of its calls and resolves with what it saw. A host that
 * has not finished within `withinMs` is asked what it is waiting for (SIGTERM: it prints its
 * state, see shared-pool-worker.ts), killed, and the run rejects with that state.
 */
export function runHost(options: HostOptions, withinMs = 60_000): Promise<HostRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/shared-pool-worker.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      WORKER_REDIS_URL: options.redisUrl,
      WORKER_PREFIX: options.prefix,
      WORKER_HOST: options.host,
      WORKER_LIMIT: String(options.limit),
      WORKER_TARGET: options.target,
      WORKER_COUNT: String(options.count),
      WORKER_LANES: String(options.lanes),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let overdue = false;
  const ask = setTimeout(() => {
    overdue = true;
    child.kill("SIGTERM");
    // A host too stuck to answer is killed anyway, so the run always ends.
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  }, withinMs);
  return new Promise((resolve, reject) =>
    child.once("exit", (code, signal) => {
      clearTimeout(ask);
      if (overdue) reject(new Error(`host ${options.host} had not finished after ${withinMs} ms; it said:\n${stderr}${stdout}`));
      else if (code === 0) resolve(JSON.parse(stdout.trim()) as HostRun);
      else reject(new Error(`host ${options.host} exited ${code ?? signal}:\n${stderr}`));
    }),
  );
}
