import { afterEach, describe, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { eventually, removeDir, sleep, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

async function provider(limit: number, cooldownMs = 0, options = {}) {
  t = await startTestHost(options);
  await t.client.setLimit("anthropic", limit);
  await t.client.setCooldown("anthropic", cooldownMs);
}

const entry = async () => (await t.client.status()).providers[0]!;

describe("acquire and release", () => {
  test("a second agent waits until the first releases, then gets the slot", async () => {
    await provider(1);
    const first = await t.client.acquire({ providerId: "anthropic", agentId: "claude-1" });
    expect(first).toMatchObject({ providerId: "anthropic" });
    expect(first.expiresAt! - first.admittedAt).toBe(120_000);
    let admitted = false;
    const second = t.client.acquire({ providerId: "anthropic", agentId: "codex-1", waiterId: "w-2" }).then((a) => {
      admitted = true;
      return a;
    });
    await eventually(async () => expect((await entry()).queued).toBe(1));
    const { waiting, held } = await t.client.leases("anthropic");
    expect(held).toEqual([expect.objectContaining({ leaseId: first.leaseId, agentId: "claude-1" })]);
    expect(waiting).toEqual([expect.objectContaining({ waiterId: "w-2", agentId: "codex-1", position: 1 })]);
    expect(admitted).toBe(false);
    expect(await t.client.release(first.leaseId, "success")).toEqual({ released: true });
    const lease = await second;
    expect(lease.leaseId).not.toBe(first.leaseId);
    expect(await t.client.release(first.leaseId, "success")).toEqual({ released: false });
  });

  test("timeoutMs 0 answers 408 at once when no slot is free", async () => {
    await provider(1);
    await t.client.acquire({ providerId: "anthropic" });
    const error = (await t.client.acquire({ providerId: "anthropic", timeoutMs: 0 }).catch((e) => e)) as ApiError;
    expect(error.status).toBe(408);
    expect(error.code).toBe("queue_timeout");
    expect((await entry()).queued).toBe(0);
  });

  test("a waiter that times out leaves the queue", async () => {
    await provider(1);
    await t.client.acquire({ providerId: "anthropic" });
    const error = (await t.client.acquire({ providerId: "anthropic", timeoutMs: 100 }).catch((e) => e)) as ApiError;
    expect(error.status).toBe(408);
    expect((await entry()).queued).toBe(0);
  });

  test("a client that hangs up while queued leaves the queue and never holds a slot", async () => {
    await provider(1);
    const first = await t.client.acquire({ providerId: "anthropic" });
    const abort = new AbortController();
    const gone = t.client.acquire({ providerId: "anthropic" }, abort.signal).catch((e) => e);
    await eventually(async () => expect((await entry()).queued).toBe(1));
    abort.abort();
    await gone;
    await eventually(async () => expect((await entry()).queued).toBe(0));
    await t.client.release(first.leaseId, "success");
    const next = await t.client.acquire({ providerId: "anthropic", timeoutMs: 0 });
    expect(next.leaseId).toBeTruthy();
    expect((await entry()).active).toBe(1);
  });

  test("an unknown lease id is 404; a malformed one is 400", async () => {
    await provider(1);
    const unknown = (await t.client.release("nope", "success").catch((e) => e)) as ApiError;
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe("unknown_lease");
    const malformed = (await t.client.heartbeat("bad id!").catch((e) => e)) as ApiError;
    expect(malformed.status).toBe(400);
  });

  test("releasing a stuck lease by hand frees the slot and is logged", async () => {
    await provider(1);
    const stuck = await t.client.acquire({ providerId: "anthropic", agentId: "aider" });
    expect(await t.client.releaseByHand(stuck.leaseId)).toEqual({ released: true });
    expect((await entry()).active).toBe(0);
    const { events } = await t.client.history();
    expect(events[0]?.kind).toBe("lease_released_by_hand");
  });
});

describe("lease time-to-live", () => {
  test("a lease nobody heartbeats expires as a failure and frees its slot", async () => {
    await provider(1, 0, { leaseTtlMs: 150 });
    const lease = await t.client.acquire({ providerId: "anthropic" });
    const next = await t.client.acquire({ providerId: "anthropic", timeoutMs: 2000 });
    expect(next.admittedAt - lease.admittedAt).toBeGreaterThanOrEqual(140);
    const late = (await t.client.heartbeat(lease.leaseId).catch((e) => e)) as ApiError;
    expect(late.status).toBe(404);
    expect(await t.client.release(lease.leaseId, "success")).toEqual({ released: false });
    expect((await t.client.history()).events.some((e) => e.kind === "lease_expired")).toBe(true);
  });

  test("heartbeats keep a lease alive past its TTL", async () => {
    await provider(1, 0, { leaseTtlMs: 2000 });
    const lease = await t.client.acquire({ providerId: "anthropic" });
    // Beat as often as the host answers until the first expiry has passed: each beat must move
    // the expiry on, and the slot stays held. Only a stall longer than the 2 s TTL could lose it.
    let expiresAt = lease.expiresAt!;
    while (Date.now() <= lease.expiresAt! + 200) {
      const beat = await t.client.heartbeat(lease.leaseId);
      expect(beat.expiresAt).toBeGreaterThanOrEqual(expiresAt);
      expiresAt = beat.expiresAt!;
      await sleep(50); // paces the loop only: how many beats it takes does not matter
    }
    expect(expiresAt).toBeGreaterThan(lease.expiresAt!);
    expect((await entry()).active).toBe(1);
    expect(await t.client.release(lease.leaseId, "success")).toEqual({ released: true });
  });

  test("an agent may ask for its own time-to-live (headroom run asks for 15 s); out of range is refused", async () => {
    await provider(2);
    const short = await t.client.acquire({ providerId: "anthropic", ttlMs: 15_000 });
    expect(short.expiresAt! - short.admittedAt).toBe(15_000);
    expect((await t.client.heartbeat(short.leaseId)).expiresAt! - Date.now()).toBeLessThanOrEqual(15_000);
    const refused = (await t.client.acquire({ providerId: "anthropic", ttlMs: 100 }).catch((e) => e)) as ApiError;
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("ttlMs must be an integer from 5000 to 3600000 (got 100)");
  });
});

describe("rate limits over HTTP", () => {
  test("a 429 pauses, lowers the limit once with a notice, and the banner can be dismissed and restored", async () => {
    await provider(4);
    const a = await t.client.acquire({ providerId: "anthropic" });
    const b = await t.client.acquire({ providerId: "anthropic" });
    await t.client.release(a.leaseId, "rate_limited", 60_000);
    await t.client.release(b.leaseId, "rate_limited", 60_000);
    let e = await entry();
    expect(e).toMatchObject({
      limit: 3,
      paused: true,
      autoReduced: true,
      autoReducedFrom: 4,
      noticeDismissed: false,
      notice: "Limit for anthropic lowered from 4 to 3 after a rate limit (429). Restore it when the provider allows more.",
    });
    expect(e.pausedUntil! - Date.now()).toBeGreaterThan(55_000);

    e = await t.client.dismissNotice("anthropic");
    expect(e).toMatchObject({ noticeDismissed: true, autoReduced: true });

    e = await t.client.resume("anthropic");
    expect(e.paused).toBe(false);
    expect(e.pausedUntil).toBeUndefined();

    await t.client.setLimit("anthropic", 4);
    e = await entry();
    expect(e).toMatchObject({ limit: 4, autoReduced: false, noticeDismissed: false });
    expect(e.notice).toBeUndefined();
    expect(e.autoReducedFrom).toBeUndefined();
    const kinds = (await t.client.history()).events.map((ev) => ev.kind);
    expect(kinds).toEqual(expect.arrayContaining(["rate_limited", "paused", "reduced", "resumed"]));
  });
});
