// Same answers as the local pool (issue 11): the local pool and the shared pool (one host, a
// real redis-server) are driven with the same random sequences of acquire, release with each
// outcome, a 429 on a lease that stays held, the early pause of upstream headers, timeout,
// abort, undelivered admission, a used-up plan window and the probe at its reset (SPEC §8),
// limit and cooldown change, resume and time steps, resuming waiters (`run --resume`), on one fake clock. After every step both must have answered the same acquires the
// same way at the same instants, admitted in the same order, and show the same status and
// history (pauses, reductions, notices), and list the same leases and waiters.
//
// Times are generated so that a waiter's deadline never falls on the very instant a cooldown
// or a pause ends (deadlines end in 5, TTLs in 3, everything else in 0): at such a tie the local
// pool's answer depends on which of its timers was created first, a detail no shared state can
// copy. For the same reason a run of consecutive lease expiries is compared as a set: leases
// that expire at one instant are told by the local pool in the order their timers were armed
// (pool events carry no time, so the run, not the instant, is what the test can group by). Lease ids differ between
// the pools, so history messages name leases by their acquire.
//
// `npm test` runs SHARED_DIFF_RUNS (default 500) sequences; `npm run test:shared-diff` runs
// 2,000. A failure prints fast-check's seed and path; SHARED_DIFF_SEED replays it.
import fc from "fast-check";

/** Runs of consecutive lease expiries in message order (see above); everything else as told. */
function tiesSorted<E extends { kind: string; message: string }>(events: E[]): E[] {
  const out = [...events];
  for (let start = 0; start < out.length; ) {
    let end = start + 1;
    const first = out[start] as E;
    if (first.kind === "lease_expired") {
      while (end < out.length && out[end]!.kind === "lease_expired") end++;
      const run = out.slice(start, end).sort((a, b) => a.message.localeCompare(b.message));
      out.splice(start, run.length, ...run);
    }
    start = end;
  }
  return out;
}
import { describe, expect, test } from "vitest";
import type { AcquireResult, PoolConfig, ProviderPool, UsageProbe } from "../../electron/engine/pool-types";
import { PAUSED_BY_UPSTREAM_HEADERS } from "../../electron/engine/pool-messages";
import { windowLabel } from "../../electron/engine/window-messages";
import { createProviderPool } from "../../electron/engine/provider-pool";
import type { HeldLease, HistoryEvent, LeaseOutcome, WaitingView } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";
import { flush } from "../support/pool-harness";
import { sharedPool } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const RUNS = Number(process.env.SHARED_DIFF_RUNS ?? 500);
const SEED = process.env.SHARED_DIFF_SEED === undefined ? undefined : Number(process.env.SHARED_DIFF_SEED);

type Command =
  | { t: "acquire"; timeoutMs: number | undefined; abortable: boolean; ttlMs: number | undefined; resume: boolean }
  | { t: "heartbeat"; pick: number }
  | { t: "abort"; pick: number }
  | { t: "release"; pick: number; outcome: LeaseOutcome; retryAfterMs: number | undefined }
  | { t: "releaseAgain"; pick: number }
  | { t: "rateLimitedOn"; pick: number; retryAfterMs: number | undefined }
  | { t: "earlyPause"; ms: number }
  | { t: "window"; usedUp: boolean; resetInMs: number | undefined }
  | { t: "undelivered"; pick: number }
  | { t: "setLimit"; limit: number }
  | { t: "setCooldown"; cooldownMs: number }
  | { t: "resume" }
  | { t: "advance"; ms: number };

// SPEC §1's `abandoned` (neutral for the backoff) may not be in this branch's LeaseOutcome yet;
// both pools already treat any outcome other than success and rate_limited as neutral.
const ABANDONED = "abandoned" as LeaseOutcome;
const tens = (max: number) => fc.integer({ min: 0, max: max / 10 }).map((n) => n * 10);
const pick = fc.nat({ max: 1_000 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("acquire" as const),
      timeoutMs: fc.option(fc.oneof(fc.constant(0), tens(5_000).map((ms) => ms + 5)), { nil: undefined }),
      abortable: fc.boolean(),
      // TTLs end in 3, so an expiry never ties with a deadline (5) or a step (0).
      ttlMs: fc.option(tens(6_000).map((ms) => ms + 3), { nil: undefined, freq: 2 }),
      // SPEC §8: a `headroom run --resume` waiting out a window goes before every other waiter.
      resume: fc.constantFrom(false, false, false, true),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("heartbeat" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("abort" as const), pick }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("release" as const),
      pick,
      outcome: fc.constantFrom<LeaseOutcome>("success", "failure", "rate_limited", ABANDONED),
      retryAfterMs: fc.option(fc.oneof(tens(10_000), fc.constant(400_000)), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("releaseAgain" as const), pick }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("rateLimitedOn" as const),
      pick,
      retryAfterMs: fc.option(tens(10_000), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("earlyPause" as const), ms: fc.oneof(tens(3_000), fc.constant(400_000)) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("window" as const),
      // An answer that is not a refusal (the probe's success), or a used-up window resetting
      // soon, beyond the 300 s cap of a Retry-After, or naming no reset (60 s).
      usedUp: fc.boolean(),
      resetInMs: fc.option(fc.oneof(tens(5_000), fc.constant(400_000)), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("undelivered" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("setLimit" as const), limit: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("setCooldown" as const), cooldownMs: fc.constantFrom(0, 50, 350, 2_000) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("resume" as const) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("advance" as const), ms: fc.oneof(tens(50), tens(3_000), fc.constant(30_000)) }) },
);

const configArb = fc.record({
  limit: fc.integer({ min: 1, max: 4 }),
  cooldownMs: fc.constantFrom(0, 350),
  autoReduced: fc.constant(false),
  noticeDismissed: fc.constant(false),
});

/**
 * The usage gate, when the sequence has one: both pools poll their own copy of one script of
 * answers (sessions, a failure, or no answer, which fails open after 2 s) and must poll at the
 * same instants to stay alike.
 */
type GateAnswer = number | "fail" | "hang";
const gateArb = fc.option(
  fc.record({
    answers: fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom<GateAnswer>("fail", "hang")), { minLength: 1, maxLength: 8 }),
    pollMs: fc.constantFrom(500, 1_000),
  }),
  { nil: undefined, freq: 2 },
);
type Gate = { answers: GateAnswer[]; pollMs: number } | undefined;

function scriptedProbe(answers: GateAnswer[]): UsageProbe {
  let polls = 0;
  return async () => {
    seen.gatePolls++;
    const next = answers[polls++ % answers.length] as GateAnswer;
    if (next === "hang") return new Promise<number>(() => {});
    if (next === "fail") throw new Error("the usage gate is down");
    return next;
  };
}

/** One acquire as each pool answered it, in words that can be compared. */
interface Asked {
  local: AcquireResult | undefined;
  shared: AcquireResult | undefined;
  controllers: [AbortController, AbortController] | undefined;
}

const answer = (result: AcquireResult | undefined): string =>
  result === undefined ? "waiting" : result.ok ? `admitted at ${result.lease.admittedAt}` : result.failure.kind;

/** What the sequences exercised, so a generator that stopped reaching a rule fails the test. */
const seen = { gatePolls: 0, admitted: 0, timeout: 0, aborted: 0, paused: 0, reduced: 0, resumed: 0, lease_expired: 0, window_exhausted: 0, window_reset: 0 };

const redis = useRedis();

async function run(config: PoolConfig, gate: Gate, commands: Command[]): Promise<void> {
  const clock = createFakeClock();
  let ids = 0;
  const localEvents: Omit<HistoryEvent, "at" | "providerId">[] = [];
  const local: ProviderPool = createProviderPool(config, {
    providerId: "anthropic",
    clock,
    newId: () => `L${++ids}`,
    onEvent: (event) => localEvents.push(event),
    ...(gate ? { usageProbe: { probe: scriptedProbe(gate.answers), pollMs: gate.pollMs } } : {}),
  });
  const { pool: shared, events: sharedEvents } = await sharedPool(redis.link, clock, config, {
    ...(gate ? { usageProbe: { probe: scriptedProbe(gate.answers), pollMs: gate.pollMs } } : {}),
  });

  const asked: Asked[] = [];
  const order = { local: [] as number[], shared: [] as number[] };
  const leaseOf = (entry: Asked, side: "local" | "shared") => {
    const result = entry[side];
    return result?.ok ? result.lease.leaseId : undefined;
  };
  const held = () => asked.filter((a) => a.local?.ok && heldNow.has(a));
  const heldNow = new Set<Asked>();
  const ended: Asked[] = [];

  const acquire = (timeoutMs: number | undefined, abortable: boolean, ttlMs: number | undefined, resume: boolean) => {
    const controllers: Asked["controllers"] = abortable ? [new AbortController(), new AbortController()] : undefined;
    const entry: Asked = { local: undefined, shared: undefined, controllers };
    const index = asked.push(entry) - 1;
    const options = (signal: AbortSignal | undefined) => ({
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(signal ? { signal } : {}),
      ...(ttlMs === undefined ? {} : { ttlMs }),
      ...(resume ? { resume } : {}),
    });
    void local.acquire(options(controllers?.[0].signal)).then((result) => {
      entry.local = result;
      if (result.ok) {
        order.local.push(index);
        heldNow.add(entry);
      }
    });
    void shared.acquire(options(controllers?.[1].signal)).then((result) => {
      entry.shared = result;
      if (result.ok) order.shared.push(index);
    });
  };

  // A lease's id in a message becomes the number of the acquire it answered, the same on both sides.
  const named = (event: Omit<HistoryEvent, "at" | "providerId">) => ({
    ...event,
    message: event.message.replace(/Lease (\S+) on/, (_, id: string) => {
      const index = asked.findIndex((a) => leaseOf(a, "local") === id || leaseOf(a, "shared") === id);
      return `Lease #${index} on`;
    }),
  });

  const same = async (step: string) => {
    await flush();
    await shared.settled();
    await flush();
    expect(asked.map((a) => answer(a.shared)), step).toEqual(asked.map((a) => answer(a.local)));
    expect(order.shared, step).toEqual(order.local);
    // upstreamLimits stays on each host (SPEC §7).
    const { waitP50Ms: _l50, waitP95Ms: _l95, upstreamLimits: _up, ...localStatus } = local.status();
    const { shared: flag, hosts, waitP50Ms: _s50, waitP95Ms: _s95, window: _w, sightings: _s, resumingQueued: _r, ...sharedStatus } = await shared.status();
    expect([flag, hosts]).toEqual([true, 1]);
    expect(sharedStatus, step).toEqual(localStatus);
    expect(tiesSorted(sharedEvents.map(named)), step).toEqual(tiesSorted(localEvents.map(named)));
    // Lease and waiter ids differ between the pools: their times and places are compared.
    const localList = local.leases();
    const sharedList = await shared.leaseList();
    const times = (held: HeldLease[]) => held.map(({ admittedAt, expiresAt }) => `${admittedAt}/${expiresAt}`).sort();
    const places = (waiting: WaitingView[]) => waiting.map(({ position, since, resuming }) => `${position}@${since}${resuming ? " resuming" : ""}`);
    expect(times(sharedList.held), step).toEqual(times(localList.held));
    expect(places(sharedList.waiting), step).toEqual(places(localList.waiting));
  };

  const releaseBoth = async (entry: Asked, how: (pool: "local" | "shared", leaseId: string) => boolean | Promise<boolean>) => {
    const localDone = how("local", leaseOf(entry, "local") as string);
    const sharedDone = await how("shared", leaseOf(entry, "shared") as string);
    expect(sharedDone).toBe(localDone);
    heldNow.delete(entry);
    if (!ended.includes(entry)) ended.push(entry);
  };

  for (const [step, command] of commands.entries()) {
    switch (command.t) {
      case "acquire":
        acquire(command.timeoutMs, command.abortable, command.ttlMs, command.resume);
        break;
      case "heartbeat": {
        const target = held()[command.pick % Math.max(1, held().length)];
        if (!target) break;
        const renewed = local.heartbeat(leaseOf(target, "local") as string);
        const sharedRenewed = await shared.heartbeat(leaseOf(target, "shared") as string);
        expect(sharedRenewed?.expiresAt).toBe(renewed?.expiresAt);
        break;
      }
      case "abort": {
        const open = asked.filter((a) => a.controllers && !a.controllers[0].signal.aborted);
        const target = open[command.pick % Math.max(1, open.length)];
        target?.controllers?.forEach((controller) => controller.abort());
        break;
      }
      case "release":
      case "undelivered": {
        const target = held()[command.pick % Math.max(1, held().length)];
        if (!target) break;
        const { outcome, retryAfterMs } = command.t === "release" ? command : { outcome: "success" as const, retryAfterMs: undefined };
        await releaseBoth(target, (side, leaseId) => {
          if (command.t === "undelivered") return side === "local" ? local.returnUndelivered(leaseId) : shared.returnUndelivered(leaseId);
          return side === "local" ? local.release(leaseId, outcome, retryAfterMs) : shared.release(leaseId, outcome, retryAfterMs);
        });
        break;
      }
      case "releaseAgain": {
        const target = ended[command.pick % Math.max(1, ended.length)];
        if (target) await releaseBoth(target, (side, leaseId) => (side === "local" ? local : shared).release(leaseId, "success"));
        break;
      }
      case "rateLimitedOn": {
        const target = held()[command.pick % Math.max(1, held().length)];
        if (!target) break;
        const localDone = local.rateLimitedOn(leaseOf(target, "local") as string, command.retryAfterMs);
        expect(await shared.rateLimitedOn(leaseOf(target, "shared") as string, command.retryAfterMs)).toBe(localDone);
        break;
      }
      case "earlyPause": {
        const resetAt = clock.now() + command.ms;
        local.noteUpstreamLimits({ seenAt: clock.now(), requests: { remaining: 0, resetAt } }, true);
        await shared.pauseUntil(resetAt, PAUSED_BY_UPSTREAM_HEADERS);
        break;
      }
      case "window": {
        // SPEC §8: one account's window, read from an answer; the shared pool keeps its pause in Redis.
        const resetsAt = command.resetInMs === undefined ? undefined : clock.now() + command.resetInMs;
        const usedUp = command.usedUp ? { name: "5h", ...(resetsAt === undefined ? {} : { resetsAt }) } : undefined;
        local.windows.note({ windows: [], ...(usedUp ? { usedUp } : {}) });
        await shared.noteWindow(command.usedUp ? { label: windowLabel("5h"), ...(resetsAt === undefined ? {} : { resetsAt }) } : undefined);
        break;
      }
      case "setLimit":
        local.setLimit(command.limit);
        await shared.setLimit(command.limit);
        break;
      case "setCooldown":
        local.setCooldown(command.cooldownMs);
        await shared.setCooldown(command.cooldownMs);
        break;
      case "resume":
        local.resume();
        await shared.resume();
        break;
      case "advance": {
        // Instant by instant: what the shared pool learns at one (a TTL lease admitted at a
        // cooldown's end, say) may arm a timer that falls before the step is over.
        const until = clock.now() + command.ms;
        for (let at = clock.nextAt(); at !== undefined && at <= until; at = clock.nextAt()) {
          clock.advance(at - clock.now());
          await flush();
          await shared.settled();
        }
        clock.advance(until - clock.now());
        break;
      }
    }
    await same(`step ${step}: ${JSON.stringify(command)}`);
  }
  for (const a of asked) if (a.local) seen[a.local.ok ? "admitted" : (a.local.failure.kind as "timeout" | "aborted")]++;
  for (const { kind } of localEvents) {
    if (kind === "paused" || kind === "reduced" || kind === "resumed" || kind === "lease_expired" || kind === "window_exhausted" || kind === "window_reset") seen[kind]++;
  }
  local.dispose();
  await shared.dispose();
}

describe("the shared pool answers like the local pool", () => {
  test(`same admissions, order, pauses, reductions and status over ${RUNS} random sequences`, async () => {
    await fc.assert(
      fc.asyncProperty(configArb, gateArb, fc.array(commandArb, { minLength: 20, maxLength: 60 }), run),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    console.info(`shared pool differential: ${RUNS} sequences, ${JSON.stringify(seen)}`);
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(0);
  }, 600_000);
});
