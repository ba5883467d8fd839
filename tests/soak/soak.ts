// `npm run soak`: agents acquire, work against a fake provider, release, crash and reconnect
// while the host is killed (-9) and restarted, with fast and stalled /events readers. At the
// end: no slot leaked, never more than the limit at the upstream, no acknowledged lease or
// setting lost, host memory flat. SOAK_SECONDS sets the length (default 120).
import { startFakeProvider } from "../../demo/fake-provider";
import { createApiClient, type ApiClient } from "../../shared/api-client";
import { rssOf, readingClient, stalledClient, type ReadingClient, type StalledClient } from "../support/event-readers";
import { startServe, type ServeProcess } from "../support/serve-process";
import { removeDir, tempDir } from "../support/test-host";
import { newLedger, PROVIDER, runAgent } from "./soak-agents";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const LIMIT = 4;
const AGENTS = 12;
const TTL_MS = 3_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const failures: string[] = [];
const check = (ok: boolean, message: string) => {
  if (!ok) failures.push(message);
};

async function main(): Promise<void> {
  const dataDir = tempDir("headroom-soak-");
  const upstream = await startFakeProvider({ cap: LIMIT, firstByteDelayMs: 10, events: 3, eventDelayMs: 5 });
  const start = (port?: number) =>
    startServe({ dataDir, ...(port === undefined ? {} : { port }), script: ["tests/soak/soak-host.ts", dataDir, String(port ?? 0), String(TTL_MS)] });
  let host: ServeProcess = await start();
  const port = host.port;
  await host.client.setLimit(PROVIDER, LIMIT);
  await host.client.setCooldown(PROVIDER, 0);

  // While the host restarts and is checked, agents and settings talk to a closed port (as to
  // a host that is down), so nothing moves between the crash and the check.
  const nowhere = createApiClient({ baseUrl: "http://127.0.0.1:9", token: host.token });
  let client: ApiClient = host.client;
  const ledger = newLedger();
  let running = true;
  const agents = Array.from({ length: AGENTS }, (_, i) => runAgent(`agent-${i}`, () => client, upstream.url, ledger, () => running));

  // Settings changes, each acknowledged one remembered.
  let cooldown = { acked: 0, inFlight: false };
  const settings = (async () => {
    for (let value = 1; running; value++) {
      cooldown.inFlight = true;
      try {
        await client.setCooldown(PROVIDER, value % 50);
        cooldown = { acked: value % 50, inFlight: false };
      } catch {
        cooldown.inFlight = false;
      }
      await pause(300);
    }
  })();

  let readers: ReadingClient[] = [];
  let stalled: StalledClient[] = [];
  const openReaders = () => {
    readers = Array.from({ length: 3 }, () => readingClient(port, host.token));
    stalled = Array.from({ length: 3 }, () => stalledClient(port, host.token));
  };
  openReaders();

  const lives: { startRss: number; endRss: number; seconds: number }[] = [];
  const deadline = Date.now() + SECONDS * 1_000;
  let restarts = 0;
  while (Date.now() < deadline) {
    const lifeMs = Math.min(8_000 + Math.random() * 8_000, deadline - Date.now());
    await pause(3_000);
    const startRss = await rssOf(host.pid);
    await pause(Math.max(0, lifeMs - 3_000));
    const endRss = await rssOf(host.pid);
    lives.push({ startRss, endRss, seconds: lifeMs / 1_000 });
    if (Date.now() >= deadline) break;

    // kill -9 at a random moment; then everything acknowledged must be back.
    const mustHold = [...ledger.held].filter((id) => !ledger.releasing.has(id));
    const mustNotHold = new Set(ledger.released);
    const expectedCooldown = cooldown.inFlight ? undefined : cooldown.acked;
    client = nowhere;
    await host.crash();
    for (const client of [...readers, ...stalled]) client.close();
    host = await start(port);
    restarts++;
    const held = new Set((await host.client.leases(PROVIDER)).held.map((lease) => lease.leaseId));
    // A restored lease keeps its old expiry: one whose TTL ran out during the restart is expired.
    const expiredMeanwhile = (id: string) => (ledger.ackedAt.get(id) ?? 0) + TTL_MS < Date.now() + 500;
    const lost = mustHold.filter((id) => !held.has(id) && !expiredMeanwhile(id));
    check(lost.length === 0, `restart ${restarts}: acknowledged leases lost: ${lost.join(", ")}`);
    const back = [...held].filter((id) => mustNotHold.has(id));
    check(back.length === 0, `restart ${restarts}: released leases came back: ${back.join(", ")}`);
    if (expectedCooldown !== undefined) {
      const saved = (await host.client.cooldown(PROVIDER)).cooldownMs;
      check(saved === expectedCooldown, `restart ${restarts}: acknowledged cooldown ${expectedCooldown} lost (found ${saved})`);
    }
    openReaders();
    client = host.client;
  }

  running = false;
  await Promise.all([...agents, settings]);
  // Crashed agents' slots come back by expiry; nothing else may stay held.
  const settleBy = Date.now() + TTL_MS + 5_000;
  let entry = (await host.client.status()).providers[0];
  while ((entry?.active ?? 0) + (entry?.queued ?? 0) > 0 && Date.now() < settleBy) {
    await pause(200);
    entry = (await host.client.status()).providers[0];
  }
  check(entry?.active === 0 && entry.queued === 0, `slots leaked: ${JSON.stringify(entry)}`);
  check(upstream.stats.maxConcurrent <= LIMIT, `the upstream saw ${upstream.stats.maxConcurrent} at once (limit ${LIMIT})`);
  check(upstream.stats.rateLimited === 0, `the upstream answered ${upstream.stats.rateLimited} requests with 429`);
  for (const [i, life] of lives.entries()) {
    check(life.endRss - life.startRss < 64e6, `host life ${i}: RSS grew ${mb(life.endRss - life.startRss)} in ${life.seconds.toFixed(0)} s`);
  }
  const fastFrames = readers.reduce((sum, reader) => sum + reader.frames.length, 0);
  check(fastFrames > 0, "the fast readers received nothing after the last restart");

  console.log(
    [
      `soak: ${SECONDS} s, ${AGENTS} agents, limit ${LIMIT}, ${restarts} kill -9 restarts`,
      `  admissions ${ledger.admissions}, releases ${ledger.released.size}, crashed agents ${ledger.crashes}, host-down retries ${ledger.hostDownErrors}`,
      `  upstream: ${upstream.stats.generations} calls, at most ${upstream.stats.maxConcurrent} at once, ${upstream.stats.rateLimited} rate-limited`,
      `  host RSS per life (after 3 s -> end): ${lives.map((l) => `${mb(l.startRss)} -> ${mb(l.endRss)}`).join(", ")}`,
    ].join("\n"),
  );
  for (const client of [...readers, ...stalled]) client.close();
  await host.stop();
  await upstream.close();
  removeDir(dataDir);
  if (failures.length > 0) {
    console.error(`soak FAILED:\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
  console.log("soak passed: no slot leaked, never over the limit, nothing acknowledged lost, memory flat");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
