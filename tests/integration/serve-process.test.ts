import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { createApiClient } from "../../shared/api-client";
import { eventually, removeDir, tempDir } from "../support/test-host";

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function serve(dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "electron/serve.ts", "--port", "0", "--proxy-port", "0", "--data-dir", dataDir], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (err += c));
  const line = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", () => {
      const m = /Headroom listening on (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, line, stderr: () => err };
}

test("npm run serve prints its URL with the token, serves the API, and shuts down cleanly on SIGTERM", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const s = serve(dir, { HEADROOM_TOKEN: "secret-token-123" });
  const url = await s.line;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=secret-token-123$/);
  const base = url.replace(/\/#token=.*$/, "");
  const client = createApiClient({ baseUrl: base, token: "secret-token-123" });
  await client.setLimit("anthropic", 1);
  await client.acquire({ providerId: "anthropic" });
  const waiting = client.acquire({ providerId: "anthropic" }).catch((e) => e);
  await eventually(async () => expect((await client.leases("anthropic")).waiting).toHaveLength(1));
  expect(existsSync(join(dir, "host.lock"))).toBe(true);

  s.child.kill("SIGTERM");
  const [code] = await once(s.child, "exit");
  expect(code).toBe(0);
  expect((await waiting).status).toBe(503);
  expect(existsSync(join(dir, "host.lock"))).toBe(false);
  expect(existsSync(join(dir, "settings.json"))).toBe(true);
}, 30_000);

test("a second serve on the same data folder refuses with a message naming the first", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const first = serve(dir);
  await first.line;
  const second = serve(dir);
  second.line.catch(() => undefined);
  const [code] = await once(second.child, "exit");
  expect(code).toBe(1);
  expect(second.stderr()).toContain(`pid ${first.child.pid}`);
  first.child.kill("SIGINT");
  const [firstCode] = await once(first.child, "exit");
  expect(firstCode).toBe(0);
}, 30_000);

/** Runs serve on `dataDir` until it exits; it must not get as far as listening. */
async function refusedStart(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const s = serve(dataDir);
  s.line.catch(() => undefined);
  const [code] = await once(s.child, "exit");
  return { code: code as number | null, stderr: s.stderr() };
}

/** One line: the sentence, no stack trace. */
function expectOneSentence(stderr: string, ...parts: string[]): void {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  for (const part of parts) expect(stderr).toContain(part);
}

test("a data folder that is a file stops start-up with one sentence and exit status 78", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const file = join(dir, "not-a-folder");
  writeFileSync(file, "x");
  const { code, stderr } = await refusedStart(file);
  expect(code).toBe(78);
  expectOneSentence(stderr, `Headroom cannot use the data folder ${file}`, "EEXIST", "a file is in the way", "--data-dir");
}, 30_000);

test("a data folder that cannot be created (a file where its parent should be) stops start-up the same way", async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeFileSync(join(dir, "parent"), "x");
  const target = join(dir, "parent", "data");
  const { code, stderr } = await refusedStart(target);
  expect(code).toBe(78);
  expectOneSentence(stderr, `Headroom cannot use the data folder ${target}`, "ENOTDIR", "--data-dir");
}, 30_000);

// Skipped as root, who may write into a read-only folder anyway, so nothing would stop start-up
// (as on the machine Headroom is developed on). It runs for any ordinary user.
test.skipIf(process.getuid?.() === 0)("a read-only data folder stops start-up with one sentence and exit status 78", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const data = join(dir, "data");
  mkdirSync(data);
  chmodSync(data, 0o500);
  try {
    const { code, stderr } = await refusedStart(data);
    expect(code).toBe(78);
    expectOneSentence(stderr, `Headroom cannot use the data folder ${data}`, "EACCES", "write access", "--data-dir");
  } finally {
    chmodSync(data, 0o700);
  }
}, 30_000);
