// SPEC §1 durability: kill -9 the host at random moments while agents acquire and release;
// after each restart exactly the acknowledged leases are held (an acquire or release still in
// flight when the host died may have landed either way, and nothing else).
import { afterAll, expect, onTestFinished, test } from "vitest";
import { startServe, type ServeProcess } from "../support/serve-process";
import { eventually, removeDir, sleep, tempDir } from "../support/test-host";

const dataDir = tempDir();
afterAll(() => removeDir(dataDir));

interface Ledger {
  held: Set<string>; // acknowledged admissions not (yet) released
  released: Set<string>; // acknowledged releases
  releasing: Set<string>; // release sent, no answer yet
  acquiring: number; // acquires sent, no answer yet
}

/** An agent loop that records only what the host acknowledged, until the host dies. */
async function agent(serve: ServeProcess, ledger: Ledger, alive: () => boolean): Promise<void> {
  while (alive()) {
    ledger.acquiring++;
    let leaseId: string;
    try {
      leaseId = (await serve.client.acquire({ providerId: "anthropic", agentId: "agent", timeoutMs: 2_000 })).leaseId;
      ledger.held.add(leaseId);
    } catch {
      return; // the host died (or the queue timed out): whatever happened is unacknowledged
    } finally {
      ledger.acquiring--;
    }
    if (Math.random() < 0.4) continue; // keep some leases across the crash
    ledger.held.delete(leaseId);
    ledger.releasing.add(leaseId);
    try {
      await serve.client.release(leaseId, "success");
      ledger.released.add(leaseId);
    } catch {
      return;
    } finally {
      ledger.releasing.delete(leaseId);
    }
  }
}

test("kill -9 at random moments loses no acknowledged lease and brings back no released one (6 rounds)", async () => {
  let serve = await startServe({ dataDir });
  onTestFinished(() => serve.stop());
  await serve.client.setLimit("anthropic", 40);
  await serve.client.setCooldown("anthropic", 0);
  for (let round = 0; round < 6; round++) {
    const ledger: Ledger = { held: new Set(), released: new Set(), releasing: new Set(), acquiring: 0 };
    let alive = true;
    const agents = Array.from({ length: 6 }, () => agent(serve, ledger, () => alive));
    // Some work acknowledged first, then a random moment (often right after an answer).
    const target = 5 + Math.floor(Math.random() * 20);
    await eventually(() => expect(ledger.held.size + ledger.released.size).toBeGreaterThanOrEqual(target), 20_000);
    await sleep(Math.random() * 100);
    // What was in flight when the host died (no agent code runs between this and the kill).
    const inFlight = { acquiring: ledger.acquiring, releasing: new Set(ledger.releasing) };
    const crashed = serve.crash();
    alive = false;
    await crashed;
    await Promise.all(agents);

    serve = await startServe({ dataDir });
    const held = new Set((await serve.client.leases("anthropic")).held.map((lease) => lease.leaseId));
    const label = `round ${round}`;
    for (const leaseId of ledger.held) expect(held.has(leaseId), `${label}: acknowledged lease ${leaseId} lost`).toBe(true);
    for (const leaseId of ledger.released) expect(held.has(leaseId), `${label}: released lease ${leaseId} came back`).toBe(false);
    const unexplained = [...held].filter((id) => !ledger.held.has(id) && !inFlight.releasing.has(id));
    expect(unexplained.length, `${label}: leases nobody was told about`).toBeLessThanOrEqual(inFlight.acquiring);
    for (const leaseId of held) await serve.client.release(leaseId, "success");
  }
}, 120_000);

test("a removed provider's held leases are forgotten on disk at once: created again, it starts empty after a kill -9", async () => {
  const dir = tempDir();
  onTestFinished(() => removeDir(dir));
  let serve = await startServe({ dataDir: dir });
  onTestFinished(() => serve.stop());
  await serve.client.setLimit("anthropic", 2);
  await serve.client.acquire({ providerId: "anthropic", agentId: "agent" });
  await serve.client.removeProvider("anthropic");
  await serve.client.setLimit("anthropic", 2);
  await serve.crash();

  serve = await startServe({ dataDir: dir });
  expect((await serve.client.leases("anthropic")).held).toEqual([]);
});
