// A real redis-server (Debian's package, installed by .ci/run) for the shared pool's tests
// and bench: its own temp folder, nothing saved to disk, 127.0.0.1 on a free port, stopped
// by pid. Never a mock: the scripts under test are Redis's own Lua.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REDIS_SERVER = process.env.HEADROOM_TEST_REDIS_SERVER ?? "/usr/bin/redis-server";
const READY_WITHIN_MS = 10_000;
const ATTEMPTS = 5;

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
  /** Kills the server (SIGKILL), keeping its folder: with `persist` its data comes back on up(). */
  down(): Promise<void>;
  /** Starts it again on the same port and folder; `empty` first deletes what it saved, as a lost disk would. */
  up(options?: { empty?: boolean }): Promise<void>;
}

export interface RedisServerOptions {
  /** Every write is appended and fsynced before Redis answers, so a killed server loses nothing. */
  persist?: boolean;
}

type Running = Pick<RedisServer, "url" | "port" | "pid" | "stop">;

/** A port that was free a moment ago: redis-server cannot be told to pick one and say which. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Sends PING until the server answers PONG (a loading server answers -LOADING instead). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function startOnce(dir: string, persist: boolean, fixedPort?: number): Promise<Running | undefined> {
  const port = fixedPort ?? (await freePort());
  const saving = persist ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
  const child = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...saving, "--daemonize", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const giveUpAt = Date.now() + READY_WITHIN_MS;
  while (Date.now() < giveUpAt) {
    if (child.exitCode !== null) {
      // Another process took the port between our probe and redis's bind: try another one.
      if (/Address already in use/.test(output)) return undefined;
      throw new Error(`redis-server exited (${child.exitCode}) before answering PING:\n${output}`);
    }
    const error = await Promise.race([spawnError, answersPing(port).then((ok) => (ok ? "ready" : undefined))]);
    if (error instanceof Error) throw new Error(`could not start ${REDIS_SERVER}: ${error.message}`);
    if (error === "ready") {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pid: child.pid as number,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          await exited(child);
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill("SIGKILL");
  await exited(child);
  throw new Error(`redis-server did not answer PING within ${READY_WITHIN_MS} ms:\n${output}`);
}

/** Starts a throwaway redis-server; stop() kills it and removes its folder. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "headroom-redis-"));
  const persist = options.persist ?? false;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let server = await startOnce(dir, persist);
      if (!server) continue;
      const { port } = server;
      return {
        url: server.url,
        port,
        get pid() {
          return server?.pid ?? -1;
        },
        stop: async () => {
          await server?.stop();
          rmSync(dir, { recursive: true, force: true });
        },
        down: async () => {
          await server?.stop();
        },
        up: async ({ empty = false } = {}) => {
          if (empty) {
            rmSync(dir, { recursive: true, force: true });
            mkdirSync(dir);
          }
          const again = await startOnce(dir, persist, port);
          if (!again) throw new Error(`port ${port} was taken while redis-server was down`);
          server = again;
        },
      };
    }
    throw new Error(`redis-server found no free port in ${ATTEMPTS} attempts`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
