// The shared pool's §1 rules, one scenario at a time, against a real redis-server on a fake
// clock. The differential property test (shared-pool.differential.test.ts) compares it with
// the local pool over random sequences; these name the rules a person would notice.
import { describe, expect, test } from "vitest";
import { redisClock } from "../../electron/shared-pool/redis-clock";
import { scriptArgs } from "../../electron/shared-pool/pool-protocol";
import { createFakeClock } from "../support/fake-clock";
import { track } from "../support/pool-harness";
import { freshPrefix, sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis();

async function admit(pool: Awaited<ReturnType<typeof sharedPool>>["pool"]): Promise<string> {
  const result = await pool.acquire();
  if (!result.ok) throw new Error(`expected an admission, got ${result.failure.kind}`);
  return result.lease.leaseId;
}

describe("shared pool on a real redis-server", () => {
  test("admits up to the limit, queues the rest in order, and admits the next on release", async () => {
    const clock = createFakeClock();
    const { pool } = await sharedPool(redis.link, clock, { limit: 2 });
    const first = await admit(pool);
    await admit(pool);
    const third = track(pool.acquire());
    const fourth = track(pool.acquire());
    await pool.settled();
    expect(third.settled).toBe(false);
    expect(await pool.status()).toMatchObject({ active: 2, queued: 2, shared: true });
    expect(await pool.release(first, "success")).toBe(true);
    await pool.settled();
    expect(third.result).toMatchObject({ ok: true });
    expect(fourth.settled).toBe(false);
    expect(await pool.release(first, "success")).toBe(false);
    await pool.dispose();
    expect(fourth.result).toEqual({ ok: false, failure: { kind: "removed" } });
  });

  test("a released slot recycles for the cooldown before the next waiter takes it", async () => {
    const clock = createFakeClock();
    const { pool } = await sharedPool(redis.link, clock, { limit: 1, cooldownMs: 350 });
    const lease = await admit(pool);
    const next = track(pool.acquire());
    await pool.release(lease, "success");
    expect(await pool.status()).toMatchObject({ active: 0, recycling: 1, queued: 1 });
    clock.advance(349);
    await pool.settled();
    expect(next.settled).toBe(false);
    clock.advance(1);
    await pool.settled();
    expect(next.result).toMatchObject({ ok: true, lease: { admittedAt: clock.now() } });
    await pool.dispose();
  });

  test("a 429 pauses, lowers the limit once per pause window, and a resume admits at once", async () => {
    const clock = createFakeClock();
    const { pool, events } = await sharedPool(redis.link, clock, { limit: 3 });
    const leases = [await admit(pool), await admit(pool), await admit(pool)];
    const waiter = track(pool.acquire());
    await pool.release(leases[0]!, "rate_limited");
    await pool.release(leases[1]!, "rate_limited");
    const status = await pool.status();
    expect(status).toMatchObject({ limit: 2, autoReduced: true, autoReducedFrom: 3, paused: true });
    expect(status.pausedUntil).toBe(clock.now() + 2_000); // the second 429 doubled the backoff
    expect(events.map((e) => e.kind)).toEqual(["rate_limited", "paused", "reduced", "rate_limited", "paused"]);
    await pool.resume();
    await pool.settled();
    expect(waiter.result).toMatchObject({ ok: true });
    await pool.dispose();
  });

  test("one pause window lowers the limit once, even for a 429 from a lease admitted after the last reduction", async () => {
    const clock = createFakeClock();
    const { pool } = await sharedPool(redis.link, clock, { limit: 3 });
    const [a, b, c] = [await admit(pool), await admit(pool), await admit(pool)];
    await pool.release(a, "rate_limited"); // 3 → 2, paused 1 s
    clock.advance(1_000);
    const d = track(pool.acquire());
    await pool.release(b, "success");
    await pool.settled();
    expect(d.result).toMatchObject({ ok: true }); // admitted under the lowered limit
    await pool.release(c, "rate_limited"); // predates the reduction: pauses only
    await pool.release(d.leaseId, "rate_limited"); // inside that pause: no second reduction
    expect(await pool.status()).toMatchObject({ limit: 2, autoReducedFrom: 3, paused: true });
    await pool.dispose();
  });

  test("at limit 1 a 429 pauses without lowering the limit, and a manual limit clears the reduction", async () => {
    const clock = createFakeClock();
    const { pool, events } = await sharedPool(redis.link, clock, { limit: 2 });
    await pool.release(await admit(pool), "rate_limited");
    expect(await pool.status()).toMatchObject({ limit: 1, autoReduced: true });
    clock.advance(1_000);
    await pool.release(await admit(pool), "rate_limited");
    expect(await pool.status()).toMatchObject({ limit: 1, autoReducedFrom: 2, paused: true });
    expect(events.filter((e) => e.kind === "reduced")).toHaveLength(1);
    await pool.setLimit(4);
    const status = await pool.status();
    expect(status).toMatchObject({ limit: 4, autoReduced: false, noticeDismissed: false });
    expect(status).not.toHaveProperty("notice");
    await pool.dispose();
  });

  test("an acquire the client sends twice (a reply lost to a dropped connection) is admitted once", async () => {
    const clock = createFakeClock();
    const keyPrefix = freshPrefix();
    const { pool } = await sharedPool(redis.link, clock, { limit: 1 }, { keyPrefix });
    const held = await admit(pool);
    const caller = () => ({ prefix: `${keyPrefix}:anthropic`, host: "host-a", now: clock.now(), epoch: pool.epoch });
    const asked = { deadline: -1, zero: 0, ttl: -1, agentId: "", resume: 0 };
    const resend = () => redis.link.run(scriptArgs("acquire", caller(), { waiterId: held, ...asked }));
    const { inbox } = await resend();
    expect(inbox).toEqual([`a|${held}|${clock.now()}|${clock.now()}|-1`]); // told again, not admitted again
    const queued = track(pool.acquire());
    await pool.settled();
    await resend();
    await redis.link.run(scriptArgs("acquire", caller(), { waiterId: "host-a.2", ...asked }));
    expect(await pool.status()).toMatchObject({ active: 1, queued: 1 });
    await pool.release(held, "success");
    await pool.settled();
    expect(queued.result).toMatchObject({ ok: true, lease: { leaseId: "host-a.2" } });
    expect(await pool.status()).toMatchObject({ active: 1, queued: 0 });
    await pool.dispose();
  });

  test("a release the client sends twice is answered alike and releases once; a second release answers false", async () => {
    const clock = createFakeClock();
    const keyPrefix = freshPrefix();
    const { pool, events } = await sharedPool(redis.link, clock, { limit: 1 }, { keyPrefix });
    const held = await admit(pool);
    const waiter = track(pool.acquire());
    await pool.settled();
    const caller = { prefix: `${keyPrefix}:anthropic`, host: "host-a", now: clock.now(), epoch: pool.epoch };
    const send = async (requestId: string) =>
      (await redis.link.run(scriptArgs("release", caller, { leaseId: held, outcome: "rate_limited", retryAfter: "", requestId }))).result;
    const first = await send(`${held}@r1`);
    const again = await send(`${held}@r1`); // the same request, resent after a lost reply
    expect(first).toEqual({ released: true, extended: true, pausedUntil: clock.now() + 1_000, reduced: false, limit: 1 });
    expect(again).toEqual(first);
    expect(await send(`${held}@r2`)).toEqual({ released: false }); // a new release of a released lease
    expect(await pool.release(held, "success")).toBe(false);
    expect(await pool.status()).toMatchObject({ active: 0, queued: 1, paused: true });
    clock.advance(1_000);
    await pool.settled();
    expect(waiter.result).toMatchObject({ ok: true }); // admitted once the single pause ended
    expect(events).toEqual([]); // the hand-sent release is not this host's to tell
    await pool.dispose();
  });

  test("a waiter admitted by a reply that never arrived (Redis killed after the write) is admitted at the host's next drive", async () => {
    const clock = createFakeClock();
    const keyPrefix = freshPrefix();
    const { pool } = await sharedPool(redis.link, clock, { limit: 1 }, { keyPrefix });
    const held = await admit(pool);
    const waiter = track(pool.acquire());
    await pool.settled();
    // The release that admits the waiter runs, but its reply (which told the admission) is lost.
    const caller = { prefix: `${keyPrefix}:anthropic`, host: "host-a", now: clock.now(), epoch: pool.epoch };
    await redis.link.run(scriptArgs("release", caller, { leaseId: held, outcome: "success", retryAfter: "", requestId: `${held}@lost` }));
    expect(await pool.status()).toMatchObject({ active: 1, queued: 0 });
    expect(waiter.result).toBeUndefined();
    clock.advance(2_000); // the heartbeat drives, naming the waiters this host still waits for
    await pool.settled();
    expect(waiter.result).toMatchObject({ ok: true, lease: { leaseId: "host-a.2" } });
    await pool.dispose();
  });

  test("a waiter whose deadline falls inside the pause is answered with a timeout at once", async () => {
    const clock = createFakeClock();
    const { pool } = await sharedPool(redis.link, clock, { limit: 2 });
    const lease = await admit(pool);
    await admit(pool);
    await pool.release(lease, "rate_limited", 5_000);
    expect(await pool.acquire({ timeoutMs: 4_000 })).toEqual({ ok: false, failure: { kind: "timeout" } });
    await pool.dispose();
  });

  test("two hosts on one provider share the limit and the queue, and a release wakes the other host", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const a = await sharedPool(redis.link, clock, { limit: 1 }, { host: "a", keyPrefix });
    const b = await sharedPool(redis.link, clock, { limit: 5 }, { host: "b", keyPrefix });
    expect(await b.pool.status()).toMatchObject({ limit: 1 }); // Redis already held it: its settings win
    const lease = await admit(a.pool);
    const onB = b.pool.acquire();
    await b.pool.settled();
    await a.pool.release(lease, "success");
    const result = await onB; // delivered through pub/sub, without b polling
    expect(result).toMatchObject({ ok: true, lease: { leaseId: "b.1" } });
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("a host that leaves a shared provider hands its slots back to the other hosts' waiters", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const leaving = await sharedPool(redis.link, clock, { limit: 1 }, { host: "a", keyPrefix });
    const staying = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    await admit(leaving.pool);
    const waiter = staying.pool.acquire();
    await staying.pool.settled();
    await leaving.pool.dispose();
    expect(await waiter).toMatchObject({ ok: true, lease: { leaseId: "b.1" } });
    expect(await staying.pool.status()).toMatchObject({ active: 1, hosts: 1 });
    await staying.pool.dispose();
  });

  test("a host silent for 10 s loses its leases, and a waiter on another host gets the slots at once", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    // Host a never refreshes: it plays a machine that died right after taking two slots.
    const dead = await sharedPool(redis.link, clock, { limit: 2, cooldownMs: 0 }, { host: "a", keyPrefix, refreshMs: 0 });
    const live = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    await admit(dead.pool);
    await admit(dead.pool);
    const waiter = track(live.pool.acquire());
    expect(await live.pool.status()).toMatchObject({ active: 2, queued: 1, hosts: 2 });
    clock.advance(10_000);
    await live.pool.settled();
    expect(waiter.settled).toBe(false); // 10 s of silence is not yet too long
    clock.advance(1);
    await live.pool.settled();
    expect(waiter.result).toMatchObject({ ok: true, lease: { admittedAt: clock.now() } });
    expect(await live.pool.status()).toMatchObject({ active: 1, queued: 0, hosts: 1 });
    await live.pool.dispose();
  });

  test("a TTL lease runs its ttl from the last heartbeat, then frees its slot for another host's waiter", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const holder = await sharedPool(redis.link, clock, { limit: 1 }, { host: "a", keyPrefix });
    const other = await sharedPool(redis.link, clock, {}, { host: "b", keyPrefix });
    const admitted = await holder.pool.acquire({ ttlMs: 5_000, agentId: "claude-1" });
    expect(admitted).toMatchObject({ ok: true, lease: { expiresAt: clock.now() + 5_000 } });
    const leaseId = admitted.ok ? admitted.lease.leaseId : "";
    const waiter = track(other.pool.acquire());
    clock.advance(3_000);
    expect(await holder.pool.heartbeat(leaseId)).toMatchObject({ leaseId, agentId: "claude-1", expiresAt: clock.now() + 5_000 });
    clock.advance(4_999);
    await other.pool.settled();
    expect(waiter.settled).toBe(false);
    clock.advance(1); // 5 s after the heartbeat: the other host's timer finds it expired
    await other.pool.settled();
    await holder.pool.settled();
    expect(waiter.result).toMatchObject({ ok: true, lease: { leaseId: "b.1", admittedAt: clock.now() } });
    expect(holder.events.map((e) => e.message)).toEqual([
      `Lease ${leaseId} on anthropic (agent claude-1) expired without a heartbeat; its slot was released as a failure.`,
    ]);
    expect(await holder.pool.heartbeat(leaseId)).toBeUndefined();
    expect(await holder.pool.release(leaseId, "success")).toBe(false);
    expect(holder.pool.heldLeases()).toEqual([]);
    await holder.pool.dispose();
    await other.pool.dispose();
  });

  test("the clock handed to the scripts is Redis's: the host's clock plus the measured offset", async () => {
    const hostClock = createFakeClock(1_000); // a host whose clock is decades behind
    const clock = await redisClock(redis.link, hostClock);
    // redis-server runs on this machine, so its TIME is this machine's wall clock.
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(5_000);
    hostClock.advance(250);
    expect(clock.now() - clock.offsetMs).toBe(1_250);
    clock.stop();
    expect(hostClock.pending()).toBe(0);
  });
});
