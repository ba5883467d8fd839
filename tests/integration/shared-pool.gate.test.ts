// The usage gate across hosts (SPEC §1 "Usage gate", §7), against a real redis-server on fake
// clocks: the host whose waiter heads the queue polls its own gate; a reading at or over the
// limit holds the whole queue (other hosts' waiters too, FIFO kept) for the poll interval; a
// failing or hanging gate fails open; and a gating host that leaves, vanishes or drops its
// gate never strands the queue.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { UsageProbe } from "../../electron/engine/pool-types";
import { GATE_ANSWER_MS } from "../../electron/engine/usage-gate";
import { GATE_STALE_MS } from "../../electron/shared-pool/gate-script";
import type { RedisLink } from "../../electron/shared-pool/redis-link";
import type { SharedPool } from "../../electron/shared-pool/shared-pool";
import { createFakeClock, type FakeClock } from "../support/fake-clock";
import { flush, track } from "../support/pool-harness";
import { startRedisServer, type RedisServer } from "../support/redis-server";
import { connectRedis, freshPrefix, sharedPool } from "../support/shared-pool-harness";

let server: RedisServer;
let link: RedisLink;

beforeAll(async () => {
  server = await startRedisServer();
  link = connectRedis(server.url);
});

afterAll(async () => {
  await link?.close();
  await server?.stop();
});

/** A gate answering from a script of sessions (a string: fails with it; "hang": never answers); counts its polls. */
function scriptedGate(answers: (number | string)[]): { probe: UsageProbe; polls: () => number } {
  let polls = 0;
  const probe: UsageProbe = async () => {
    const next = answers[Math.min(polls++, answers.length - 1)] as number | string;
    if (next === "hang") return new Promise<number>(() => {});
    if (typeof next === "string") throw new Error(next);
    return next;
  };
  return { probe, polls: () => polls };
}

/** Lets every host hear and answer everything the last step started. */
async function settle(...pools: SharedPool[]): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await flush();
    for (const pool of pools) await pool.settled();
  }
}

/** Another host hears of its ask over pub/sub: waits until it polled `times` times and reported. */
async function polled(gate: { polls: () => number }, times: number, host: SharedPool): Promise<void> {
  await vi.waitFor(() => expect(gate.polls()).toBe(times));
  await settle(host);
}

/** Moves the clock instant by instant, letting every host answer at each. */
async function advance(clock: FakeClock, ms: number, ...pools: SharedPool[]): Promise<void> {
  const until = clock.now() + ms;
  for (let at = clock.nextAt(); at !== undefined && at <= until; at = clock.nextAt()) {
    clock.advance(at - clock.now());
    await settle(...pools);
  }
  clock.advance(until - clock.now());
  await settle(...pools);
}

async function admit(pool: SharedPool): Promise<string> {
  const result = await pool.acquire();
  if (!result.ok) throw new Error(`expected an admission, got ${result.failure.kind}`);
  return result.lease.leaseId;
}

describe("the usage gate across hosts", () => {
  test("a reading at the limit holds the queue on every host until the next poll; a lower one lets waiters in in order", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const gateA = scriptedGate([2, 1]);
    const a = await sharedPool(link, clock, { limit: 2 }, { host: "a", keyPrefix, usageProbe: { probe: gateA.probe, pollMs: 500 } });
    const b = await sharedPool(link, clock, {}, { host: "b", keyPrefix });
    const first = await admit(b.pool); // immediate admissions are not gated
    await admit(b.pool);
    const fromA = track(a.pool.acquire());
    await settle(a.pool, b.pool);
    const fromB = track(b.pool.acquire());
    await settle(a.pool, b.pool);
    expect(gateA.polls()).toBe(0);

    await b.pool.release(first, "success");
    await polled(gateA, 1, a.pool); // a's waiter heads the queue: a polls its gate
    expect([fromA.settled, fromB.settled]).toEqual([false, false]); // 2 sessions at limit 2: nobody goes in
    expect(a.pool.usageReading()).toEqual({ ok: true, concurrentSessions: 2, checkedAt: clock.now() });
    expect((await a.pool.status()).usageGate).toEqual({ ok: true, concurrentSessions: 2, checkedAt: clock.now() });
    expect((await b.pool.status()).usageGate).toBeUndefined(); // b has no gate of its own

    await advance(clock, 499, a.pool, b.pool);
    expect([gateA.polls(), fromA.settled, fromB.settled]).toEqual([1, false, false]);
    await advance(clock, 1, a.pool, b.pool);
    await polled(gateA, 2, a.pool); // the interval is over: polled again, 1 session now
    expect(fromA.result).toMatchObject({ ok: true, lease: { leaseId: "a.1" } });
    expect(fromB.settled).toBe(false); // the other slot is still held by b
    expect(await b.pool.status()).toMatchObject({ active: 2, queued: 1 });
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("a busy reading of one host's gate holds another host's gated waiter too, and that host polls once the interval ends", async () => {
    const keyPrefix = freshPrefix();
    const clock = createFakeClock();
    const gateA = scriptedGate([1]);
    const gateB = scriptedGate([0]);
    const a = await sharedPool(link, clock, { limit: 1 }, { host: "a", keyPrefix, usageProbe: { probe: gateA.probe, pollMs: 1_000 } });
    const b = await sharedPool(link, clock, {}, { host: "b", keyPrefix, usageProbe: { probe: gateB.probe, pollMs: 1_000 } });
    const holder = await admit(b.pool);
    const giveUp = new AbortController();
    const fromA = track(a.pool.acquire({ signal: giveUp.signal }));
    await settle(a.pool, b.pool);
    const fromB = track(b.pool.acquire());
    await settle(a.pool, b.pool);
    await b.pool.release(holder, "success");
    await polled(gateA, 1, a.pool); // a's reading: 1 session at limit 1
    expect(gateB.polls()).toBe(0);

    giveUp.abort(); // b's waiter heads the queue now, inside a's busy interval
    await settle(a.pool, b.pool);
    expect(fromA.result).toMatchObject({ ok: false, failure: { kind: "aborted" } });
    await advance(clock, 999, a.pool, b.pool);
    expect([gateB.polls(), fromB.settled]).toEqual([0, false]);
    await advance(clock, 1, a.pool, b.pool);
    await polled(gateB, 1, b.pool);
    expect(fromB.result).toMatchObject({ ok: true, lease: { leaseId: "b.2" } });
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("a new gate starts afresh: its host's busy hold goes and the head is polled at once", async () => {
    const clock = createFakeClock();
    const busy = scriptedGate([1]);
    const { pool } = await sharedPool(link, clock, { limit: 1 }, { usageProbe: { probe: busy.probe, pollMs: 60_000 } });
    const holder = await admit(pool);
    const waiter = track(pool.acquire());
    await settle(pool);
    await pool.release(holder, "success");
    await settle(pool);
    expect([busy.polls(), waiter.settled]).toEqual([1, false]);
    const idle = scriptedGate([0]);
    pool.setUsageProbe({ probe: idle.probe, pollMs: 60_000 });
    await settle(pool);
    expect(idle.polls()).toBe(1);
    expect(waiter.result).toMatchObject({ ok: true });
    await pool.dispose();
  });

  test("a failing gate fails open, and the error is the reading", async () => {
    const clock = createFakeClock();
    const gate = scriptedGate(["upstream said 503"]);
    const { pool } = await sharedPool(link, clock, { limit: 1 }, { usageProbe: { probe: gate.probe, pollMs: 1_000 } });
    const holder = await admit(pool);
    const waiter = track(pool.acquire());
    await settle(pool);
    await pool.release(holder, "success");
    await settle(pool);
    expect(gate.polls()).toBe(1);
    expect(waiter.result).toMatchObject({ ok: true });
    expect((await pool.status()).usageGate).toEqual({ ok: false, error: "upstream said 503", checkedAt: clock.now() });
    await pool.dispose();
  });

  test(`a gate that hangs fails open after ${GATE_ANSWER_MS / 1000} s`, async () => {
    const clock = createFakeClock();
    const gate = scriptedGate(["hang"]);
    const { pool } = await sharedPool(link, clock, { limit: 1 }, { usageProbe: { probe: gate.probe, pollMs: 1_000 } });
    const holder = await admit(pool);
    const waiter = track(pool.acquire());
    await settle(pool);
    await pool.release(holder, "success");
    await advance(clock, GATE_ANSWER_MS - 1, pool);
    expect([gate.polls(), waiter.settled]).toEqual([1, false]);
    await advance(clock, 1, pool);
    expect(waiter.result).toMatchObject({ ok: true });
    expect(pool.usageReading()).toEqual({ ok: false, error: "the usage gate did not answer within 2 s", checkedAt: clock.now() });
    await pool.dispose();
  });
});

describe("a gating host that goes away does not strand the queue", () => {
  /** Host a gates with a poll that never ends; b holds the one slot and queues behind a's waiter. */
  async function askedAndSilent(aClock: FakeClock, bClock: FakeClock, refreshMs?: number) {
    const keyPrefix = freshPrefix();
    const hang = scriptedGate(["hang"]);
    const a = await sharedPool(link, aClock, { limit: 1 }, {
      host: "a",
      keyPrefix,
      usageProbe: { probe: hang.probe, pollMs: 1_000 },
      ...(refreshMs === undefined ? {} : { refreshMs }),
    });
    // b gates too, so a stale ask of a's would hold b's waiter as well.
    const b = await sharedPool(link, bClock, {}, { host: "b", keyPrefix, usageProbe: { probe: scriptedGate([0]).probe, pollMs: 1_000 } });
    const holder = await admit(b.pool);
    const fromA = track(a.pool.acquire());
    await settle(a.pool, b.pool);
    const fromB = track(b.pool.acquire());
    await settle(a.pool, b.pool);
    await b.pool.release(holder, "success");
    await polled(hang, 1, a.pool);
    expect([fromA.settled, fromB.settled]).toEqual([false, false]);
    return { a, b, fromA, fromB };
  }

  test("a host that leaves while asked to poll hands the queue on at once", async () => {
    const clock = createFakeClock();
    const { a, b, fromB } = await askedAndSilent(clock, clock);
    await a.pool.dispose();
    await settle(b.pool);
    await vi.waitFor(() => expect(fromB.result).toMatchObject({ ok: true, lease: { leaseId: "b.2" } }));
    await b.pool.dispose();
  });

  test("a host that removes its gate while asked lets its waiter in at once", async () => {
    const clock = createFakeClock();
    const { a, b, fromA, fromB } = await askedAndSilent(clock, clock);
    a.pool.setUsageProbe(undefined);
    await settle(a.pool, b.pool);
    expect(fromA.result).toMatchObject({ ok: true, lease: { leaseId: "a.1" } });
    expect([fromB.settled, a.pool.usageReading()]).toEqual([false, undefined]);
    await a.pool.dispose();
    await b.pool.dispose();
  });

  test("an ask its host never answers fails open, and the vanished host's slot frees as any dead host's", async () => {
    // Host a's clock stands still: its own 2 s timeout and its heartbeats never come, as for a
    // machine that died after it was asked.
    const frozen = createFakeClock();
    const clock = createFakeClock();
    const { a, b, fromB } = await askedAndSilent(frozen, clock, 0);
    await advance(clock, GATE_STALE_MS - 1, b.pool);
    expect(await b.pool.status()).toMatchObject({ active: 0, queued: 2 });
    await advance(clock, 1, b.pool);
    expect(await b.pool.status()).toMatchObject({ active: 1, queued: 1 }); // a's waiter went in, unasked
    await advance(clock, 10_000, b.pool);
    await vi.waitFor(() => expect(fromB.result).toMatchObject({ ok: true, lease: { leaseId: "b.2" } }));
    await a.pool.dispose({ keepLeases: true });
    await b.pool.dispose();
  });
});
