// SPEC §3 GET /events: a client that does not read never grows the host's memory, and history
// goes out as deltas, so a change costs its own size whatever the history's length.
import { afterEach, expect, test } from "vitest";
import { rssOf, readingClient, stalledClient } from "../support/event-readers";
import { startServe, type ServeProcess } from "../support/serve-process";
import { eventually, removeDir, tempDir } from "../support/test-host";

let serve: ServeProcess | undefined;
const dataDir = tempDir();
afterEach(async () => {
  await serve?.stop();
  removeDir(dataDir);
});

// Long names make each history event ~1 KB, so the 1 MiB cap is reached in seconds.
const route = { targetId: "t".repeat(60), runtimeId: "r".repeat(60), modelId: "m".repeat(60) };
const reason = "x".repeat(500);

/** One route opening and closing again (two history events), `cycles` times, 4 at once. */
async function churnHistory(s: ServeProcess, cycles: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next++ < cycles) {
      await s.client.routeOutcome(route, `run-${next}`, "failure", reason);
      await s.client.routeReset(route);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

test("a client that never reads is dropped with the host's memory bounded; a reading client gets deltas only", async () => {
  serve = await startServe({ dataDir });
  const s = serve;
  await s.client.setRouteSettings({ threshold: 1 });
  // 100 providers with long upstreams make every status snapshot ~200 KB, so the kernel's
  // socket buffers fill within seconds and the host's own backlog is what the test sees.
  for (let i = 0; i < 100; i++) {
    await s.client.setLimit(`p${i}`, 1);
    await s.client.setProvider(`p${i}`, { upstream: `http://127.0.0.1:9/${"u".repeat(1_900)}` });
  }
  const stalled = stalledClient(s.port, s.token);
  const reader = readingClient(s.port, s.token);
  await eventually(() => expect(reader.frames.map((f) => f.event)).toEqual(["status", "routes", "agents", "history"]));
  await churnHistory(s, 100); // warm-up: the host's heap settles before the baseline
  const before = await rssOf(s.pid);

  let cycles = 100;
  let cooldown = 0;
  const deadline = Date.now() + 90_000;
  while (!(await stalled.droppedByHost())) {
    expect(Date.now(), "the host never dropped the client that does not read").toBeLessThan(deadline);
    await Promise.all([s.client.setCooldown("p0", ++cooldown), churnHistory(s, 10)]);
    cycles += 10;
  }
  // What the host had sent by then: the reading client has it all (it reads as it comes).
  const sent = reader.bytes();
  const grown = (await rssOf(s.pid)) - before;
  const received = await stalled.drain();
  // Host memory is measured with 100 such clients in `npm run bench` (RSS is too noisy for one).
  console.log(`dropped after ${cycles} route cycles and ${cooldown} status changes: ${received} of ${sent} bytes had reached it; host RSS +${(grown / 1e6).toFixed(1)} MB`);
  // Dropped, not fed: what never left the host was thrown away with the connection. (A slow
  // host may drop it already during the warm-up, before any status change: the same holds.)
  expect(received).toBeLessThan(sent - 500_000);

  // The reading client was never dropped and got each event once, in deltas, never the whole
  // history again: its own list, newest first, is what GET /history holds.
  let readerDropped = false;
  void reader.ended.then(() => (readerDropped = true));
  const history = (await s.client.history()).events;
  await eventually(() => {
    expect(readerDropped).toBe(false);
    const added = reader.frames.filter((f) => f.event === "history-added").map((f) => f.data.events);
    const seen = [...added].reverse().flat();
    expect(seen.slice(0, 500)).toEqual(history);
  }, 20_000);
  expect(reader.frames.filter((f) => f.event === "history")).toHaveLength(1);
  const sizes = reader.frames.filter((f) => f.event === "history-added").map((f) => f.data.events.length);
  expect(Math.max(...sizes)).toBeLessThan(500);
  reader.close();
}, 150_000);
