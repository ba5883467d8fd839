// Across processes (issue 11, "Across hosts", bounded): three host processes share one
// provider at limit 4 on a real redis-server and call a provider that counts how many calls
// it holds at once. However the hosts' lanes interleave, it never holds more than 4.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import { freshPrefix } from "../support/shared-pool-harness";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const HOSTS = 3;
const LIMIT = 4;
const PER_HOST = 40;
const LANES = 4;

let redis: RedisServer;
let provider: Server;
let providerUrl: string;
const seen = { current: 0, most: 0, calls: 0, byHost: new Map<string, number>() };

beforeAll(async () => {
  redis = await startRedisServer();
  provider = createServer((request, response) => {
    const host = new URL(request.url ?? "/", "http://x").searchParams.get("host") ?? "?";
    seen.current++;
    seen.calls++;
    seen.most = Math.max(seen.most, seen.current);
    seen.byHost.set(host, (seen.byHost.get(host) ?? 0) + 1);
    // Held a little while, so the hosts' lanes really overlap.
    setTimeout(() => {
      seen.current--;
      response.end("ok");
    }, 3 + Math.floor(Math.random() * 8));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => provider?.close(resolve));
  await redis?.stop();
});

function runHost(host: string, prefix: string): Promise<{ host: string; admitted: number; failures: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/shared-pool-worker.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      WORKER_REDIS_URL: redis.url,
      WORKER_PREFIX: prefix,
      WORKER_HOST: host,
      WORKER_LIMIT: String(LIMIT),
      WORKER_TARGET: providerUrl,
      WORKER_COUNT: String(PER_HOST),
      WORKER_LANES: String(LANES),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      if (code === 0) resolve(JSON.parse(stdout.trim()));
      else reject(new Error(`host ${host} exited ${code}:\n${stderr}`));
    }),
  );
}

test(`${HOSTS} host processes at limit ${LIMIT} never hold more than ${LIMIT} provider calls at once`, async () => {
  const prefix = freshPrefix();
  const hosts = await Promise.all(Array.from({ length: HOSTS }, (_, i) => runHost(`host-${i + 1}`, prefix)));
  expect(hosts.map((h) => h.failures)).toEqual([0, 0, 0]);
  expect(hosts.reduce((sum, h) => sum + h.admitted, 0)).toBe(HOSTS * PER_HOST);
  expect(seen.calls).toBe(HOSTS * PER_HOST);
  expect(seen.most).toBeLessThanOrEqual(LIMIT);
  // The limit was shared, not split: at some moment all of it was in use.
  expect(seen.most).toBe(LIMIT);
}, 60_000);
