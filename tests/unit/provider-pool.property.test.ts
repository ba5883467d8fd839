// The SPEC §1 invariants under random interleavings of everything a pool can be asked to
// do, with time moved by hand: held + recycling <= limit at every admission, no waiter
// admitted twice or lost, a lease released at most once, counters never negative, FIFO
// among waiters that do not give up (and, with a plan-window hold, among held waiters and among
// waiters it lets through: SPEC §8), resuming waiters (`run --resume`) before every other waiter
// and FIFO among themselves, and a queue that never sits stuck beside a free slot.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PROPERTY_TIMEOUT_MS, propertyRuns } from "../support/property-runs";
import type { AcquireResult, PoolConfig, ProviderPool, UsageProbe } from "../../electron/engine/pool-types";
import { createProviderPool } from "../../electron/engine/provider-pool";
import type { LeaseOutcome } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";
import { flush } from "../support/pool-harness";

type GateAnswer = number | "fail" | "hang";

type Command =
  | { t: "acquire"; timeoutMs: number | undefined; abortable: boolean; agent: "busy" | "new" | undefined; resume: boolean }
  | { t: "window"; usedPercent: number; resetInMs: number }
  | { t: "hold"; percent: number | undefined }
  | { t: "abort"; pick: number }
  | { t: "release"; pick: number; outcome: LeaseOutcome; retryAfterMs: number | undefined }
  | { t: "releaseAgain"; pick: number }
  | { t: "undelivered"; pick: number }
  | { t: "setLimit"; limit: number }
  | { t: "setCooldown"; cooldownMs: number }
  | { t: "resume" }
  | { t: "advance"; ms: number }
  | { t: "gate"; answer: GateAnswer };

const pick = fc.nat({ max: 1_000 });
const commandArb = (withGate: boolean): fc.Arbitrary<Command> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        t: fc.constant("acquire" as const),
        timeoutMs: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 })), { nil: undefined }),
        abortable: fc.boolean(),
        agent: fc.constantFrom("busy" as const, "new" as const, undefined),
        resume: fc.constantFrom(false, false, false, true),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant("window" as const),
        usedPercent: fc.constantFrom(0, 50, 85, 95, 100),
        resetInMs: fc.integer({ min: 0, max: 5_000 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("hold" as const), percent: fc.constantFrom(undefined, 80, 95) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant("abort" as const), pick }) },
    {
      weight: 5,
      arbitrary: fc.record({
        t: fc.constant("release" as const),
        pick,
        outcome: fc.constantFrom<LeaseOutcome>("success", "failure", "rate_limited"),
        retryAfterMs: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("releaseAgain" as const), pick }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("undelivered" as const), pick }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("setLimit" as const), limit: fc.integer({ min: 1, max: 6 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant("setCooldown" as const), cooldownMs: fc.constantFrom(0, 1, 50, 350, 2_000) }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("resume" as const) }) },
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant("advance" as const),
        ms: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3_000 }), fc.constant(30_000)),
      }),
    },
    {
      weight: withGate ? 2 : 0,
      arbitrary: fc.record({
        t: fc.constant("gate" as const),
        answer: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom<GateAnswer>("fail", "hang")),
      }),
    },
  );

interface Acquire {
  index: number;
  result: AcquireResult | undefined;
  answers: number;
  controller: AbortController | undefined;
  /** Still unanswered when the test aborted it: it must end as aborted, never admitted. */
  abortedWhileWaiting: boolean;
  calledAt: number;
  timeoutMs: number | undefined;
  /** A proxy request of an agent at work: a window hold lets it through. */
  exempt: boolean;
  /** A `headroom run --resume` waiting out a window: it goes before every other waiter. */
  resuming: boolean;
  /** Leases issued before it asked: every admission numbered after this came after its call. */
  issuedAtCall: number;
}

async function run(initial: PoolConfig, commands: Command[], withGate: boolean): Promise<void> {
  const clock = createFakeClock();
  let issued = 0;
  let admissionPending = false;
  let gateAnswer: GateAnswer = 0;
  const logs: string[] = [];
  const probe: UsageProbe = () => {
    const answer = gateAnswer;
    if (answer === "hang") return new Promise<number>(() => {});
    if (answer === "fail") return Promise.reject(new Error("gate down"));
    return Promise.resolve(answer);
  };
  const pool: ProviderPool = createProviderPool(initial, {
    providerId: "prop",
    clock,
    newId: () => {
      admissionPending = true;
      return `L${++issued}`;
    },
    onLeasesChange: () => {
      if (!admissionPending) return;
      admissionPending = false;
      // Checked right after each admission (a batch ends in one callback, and a batch only adds).
      const status = pool.status();
      expect(status.active + status.recycling).toBeLessThanOrEqual(status.limit);
      expect(status.paused).toBe(false);
    },
    log: (message) => logs.push(message),
    recentAgent: (agentId) => agentId === "busy",
    ...(withGate ? { usageProbe: { probe, pollMs: 500 } } : {}),
  });

  const acquires: Acquire[] = [];
  const held = new Map<string, Acquire>();
  const ended = new Set<string>();

  const acquire = (timeoutMs: number | undefined, abortable: boolean, agent: string | undefined, resume: boolean) => {
    const controller = abortable ? new AbortController() : undefined;
    const entry: Acquire = {
      index: acquires.length,
      result: undefined,
      answers: 0,
      controller,
      abortedWhileWaiting: false,
      calledAt: clock.now(),
      timeoutMs,
      exempt: agent === "busy" && !resume,
      resuming: resume,
      issuedAtCall: issued,
    };
    acquires.push(entry);
    void pool
      .acquire({
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(controller ? { signal: controller.signal } : {}),
        // Proxy requests wait through a reset up to 2 s away (SPEC §8 `waitForResetMs`).
        ...(agent === undefined ? {} : resume ? { agentId: agent } : { agentId: agent, proxied: true, nearResetMs: 2_000 }),
        ...(resume ? { resume: true } : {}),
      })
      .then((result) => {
        entry.answers++;
        entry.result = result;
        if (result.ok) held.set(result.lease.leaseId, entry);
      });
  };
  const pickHeld = (n: number) => [...held.keys()][n % Math.max(1, held.size)];
  const end = (leaseId: string, done: boolean) => {
    expect(done).toBe(!ended.has(leaseId)); // a lease is released at most once
    held.delete(leaseId);
    ended.add(leaseId);
  };

  const check = () => {
    const status = pool.status();
    const waiting = acquires.filter((a) => a.result === undefined).length;
    for (const count of [status.active, status.queued, status.recycling]) expect(count).toBeGreaterThanOrEqual(0);
    expect(status.active).toBe(held.size);
    expect(status.queued).toBe(waiting);
    expect(new Set(pool.heldLeases().map((l) => l.leaseId))).toEqual(new Set(held.keys()));
    // No admission is lost: every lease id issued reached exactly one acquire.
    expect(acquires.filter((a) => a.result?.ok).length).toBe(issued);
    if (!withGate && status.queued > 0) {
      // Paused, full, or held back for a reason the status gives (a window hold, a probe out).
      expect(status.paused || status.active + status.recycling >= status.limit || status.waitReason !== undefined).toBe(true);
    }
  };

  for (const command of commands) {
    switch (command.t) {
      case "acquire":
        acquire(command.timeoutMs, command.abortable, command.agent, command.resume);
        break;
      case "window": {
        const resetsAt = clock.now() + command.resetInMs;
        const window = { name: "5h", usedPercent: command.usedPercent, resetsAt, seenAt: clock.now(), scoped: false };
        pool.windows.note({ windows: [window], ...(command.usedPercent === 100 ? { usedUp: { name: "5h", resetsAt } } : {}) });
        break;
      }
      case "hold":
        pool.windows.setHoldNewAtPercent(command.percent);
        break;
      case "abort": {
        const open = acquires.filter((a) => a.controller && !a.controller.signal.aborted);
        const target = open[command.pick % Math.max(1, open.length)];
        if (!target) break;
        target.abortedWhileWaiting = target.result === undefined;
        target.controller!.abort();
        break;
      }
      case "release":
      case "releaseAgain":
      case "undelivered": {
        const leaseId =
          command.t === "releaseAgain" ? [...ended][command.pick % Math.max(1, ended.size)] : pickHeld(command.pick);
        if (leaseId === undefined) break;
        let done: boolean;
        if (command.t === "undelivered") done = pool.returnUndelivered(leaseId);
        else if (command.t === "release") done = pool.release(leaseId, command.outcome, command.retryAfterMs);
        else done = pool.release(leaseId, "success");
        end(leaseId, done);
        break;
      }
      case "setLimit":
        pool.setLimit(command.limit);
        break;
      case "setCooldown":
        pool.setCooldown(command.cooldownMs);
        break;
      case "resume":
        pool.resume();
        break;
      case "advance":
        clock.advance(command.ms);
        break;
      case "gate":
        gateAnswer = command.answer;
        break;
    }
    await flush();
    check();
  }

  // Drain: lift every obstacle and release everything until nobody waits.
  gateAnswer = 0;
  pool.windows.setHoldNewAtPercent(undefined);
  for (let round = 0; round < 50 && acquires.some((a) => a.result === undefined); round++) {
    pool.resume();
    clock.advance(400_000);
    for (const leaseId of [...held.keys()]) end(leaseId, pool.release(leaseId, "success"));
    await flush();
    check();
  }
  for (const leaseId of [...held.keys()]) end(leaseId, pool.release(leaseId, "success"));
  clock.advance(400_000);
  await flush();
  check();

  expect(acquires.every((a) => a.answers === 1)).toBe(true);
  expect(pool.status()).toMatchObject({ active: 0, queued: 0, recycling: 0 });
  expect(clock.pending()).toBe(0);
  expect(logs).toEqual([]); // the watchdog never had to rescue the queue

  for (const a of acquires) {
    if (a.abortedWhileWaiting) expect(a.result).toEqual({ ok: false, failure: { kind: "aborted" } });
    if (a.result?.ok && a.timeoutMs !== undefined) {
      expect(a.result.lease.admittedAt).toBeLessThanOrEqual(a.calledAt + a.timeoutMs);
    }
  }
  // FIFO: lease ids are issued in admission order, so admitted acquires keep call order, among
  // the waiters a hold may hold and among those it lets through (which may pass held ones).
  const leaseNo = (a: Acquire) => (a.result?.ok ? Number(a.result.lease.leaseId.slice(1)) : undefined);
  for (const kind of ["held", "exempt", "resuming"] as const) {
    const admittedOrder = acquires.flatMap((a) => {
      const n = leaseNo(a);
      const its = a.resuming ? "resuming" : a.exempt ? "exempt" : "held";
      return n !== undefined && its === kind ? [n] : [];
    });
    expect(admittedOrder).toEqual([...admittedOrder].sort((x, y) => x - y));
  }
  // Resuming first: no other waiter was admitted while a resuming one that was eventually admitted waited.
  const resumed = acquires.filter((a) => a.resuming && leaseNo(a) !== undefined);
  for (const other of acquires) {
    const n = leaseNo(other);
    if (other.resuming || n === undefined) continue;
    for (const r of resumed) if (r.issuedAtCall < n) expect(leaseNo(r)).toBeLessThan(n);
  }
}

const configArb = fc.record({
  limit: fc.integer({ min: 1, max: 4 }),
  cooldownMs: fc.constantFrom(0, 350),
  autoReduced: fc.constant(false),
  noticeDismissed: fc.constant(false),
});

describe("provider pool invariants under random interleavings", () => {
  test("hold without a usage gate (runs of 50-100 steps)", async () => {
    await fc.assert(
      fc.asyncProperty(configArb, fc.array(commandArb(false), { minLength: 50, maxLength: 100 }), (config, commands) =>
        run(config, commands, false),
      ),
      propertyRuns(200),
    );
  }, PROPERTY_TIMEOUT_MS);

  test("hold with a usage gate that answers, fails or hangs (runs of 50-100 steps)", async () => {
    await fc.assert(
      fc.asyncProperty(configArb, fc.array(commandArb(true), { minLength: 50, maxLength: 100 }), (config, commands) =>
        run(config, commands, true),
      ),
      propertyRuns(100),
    );
  }, PROPERTY_TIMEOUT_MS);
});
