// SPEC §9: usage counts live in the data folder's usage/ hour files, written at most every few
// seconds and at shutdown.
// A real serve process is killed (-9: only what was written survives) and stopped (SIGTERM:
// everything survives), with the write interval shortened so the test need not wait 5 s.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, test } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { post } from "../support/proxy-harness";
import { startServe, type ServeProcess } from "../support/serve-process";
import { eventually, removeDir, tempDir } from "../support/test-host";

const WRITE_MS = 300;
const dataDir = tempDir();
let fake: FakeProvider | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});
afterAll(async () => {
  await fake?.close();
  removeDir(dataDir);
});

const start = () => startServe({ dataDir, env: { HEADROOM_USAGE_WRITE_MS: String(WRITE_MS) } });
const message = { model: "claude-test", max_tokens: 8, stream: true, messages: [{ role: "user", content: "hi" }] };

async function ask(host: ServeProcess, agent: string): Promise<void> {
  const { proxyUrl } = await host.client.hostInfo();
  expect((await post(`${proxyUrl}/anthropic/v1/messages`, message, { "x-headroom-agent": agent })).status).toBe(200);
}

/** The label adds the asking process's folder when the /proc lookup finds it in time (SPEC §9). */
const nameOf = (label: string) => label.split(" · ")[0];

const requestsOf = async (host: ServeProcess) =>
  Object.fromEntries((await host.client.usage({ hours: 192 })).rows.map((row) => [nameOf(row.agent ?? ""), row.requests]));

/** Requests per agent as the hour files hold them now. */
const written = (): Record<string, number> => {
  const folder = join(dataDir, "usage");
  if (!existsSync(folder)) return {};
  const out: Record<string, number> = {};
  for (const name of readdirSync(folder).filter((file) => /^\d{4}-\d{2}-\d{2}T\d{2}\.json$/.test(file))) {
    const { providers } = JSON.parse(readFileSync(join(folder, name), "utf8")) as { providers: Record<string, { agent: string; requests: number }[]> };
    for (const one of Object.values(providers).flat()) out[nameOf(one.agent)!] = (out[nameOf(one.agent)!] ?? 0) + one.requests;
  }
  return out;
};

test("a kill -9 loses at most the counts of the last write interval; a SIGTERM loses none", async () => {
  fake = await startFakeProvider({ events: 2, eventDelayMs: 0 });
  serve = await start();
  await serve.client.setLimit("anthropic", 2);
  await serve.client.setProvider("anthropic", { upstream: fake.url });
  await ask(serve, "steady");
  await eventually(() => expect(written()).toEqual({ steady: 1 }));
  await ask(serve, "late");
  await serve.crash();
  serve = await start();
  const afterCrash = await requestsOf(serve);
  expect(afterCrash.steady).toBe(1); // written before the kill
  expect([undefined, 1]).toContain(afterCrash.late); // within the last interval: either way

  await ask(serve, "stopped");
  await serve.stop(); // SIGTERM right after the answer, well inside the write interval
  serve = undefined;
  expect(written()).toMatchObject({ steady: 1, stopped: 1 });
}, 120_000); // two serve starts; minutes on a machine shared by many test runs
