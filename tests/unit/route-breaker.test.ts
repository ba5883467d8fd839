import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { BreakerSettings, HistoryEvent, RouteKey, RouteOutcome } from "../../shared/types";
import { createRouteBreaker } from "../../electron/engine/route-breaker";
import { createFakeClock } from "../support/fake-clock";
import { PROPERTY_TIMEOUT_MS, propertyRuns } from "../support/property-runs";

const A: RouteKey = { targetId: "anthropic", runtimeId: "http", modelId: "claude-sonnet" };
const B: RouteKey = { targetId: "openai", runtimeId: "http", modelId: "gpt" };

function setup(settings: Partial<BreakerSettings> = {}) {
  const clock = createFakeClock();
  const events: Omit<HistoryEvent, "at">[] = [];
  let changes = 0;
  const breaker = createRouteBreaker({
    clock,
    settings: { threshold: 1, cooldownMs: 15_000, ...settings },
    onChange: () => changes++,
    onEvent: (e) => events.push(e),
  });
  const kinds = () => events.map((e) => e.kind);
  return { clock, breaker, events, kinds, changes: () => changes };
}

/** Opens A with one failure and moves to the end of its open period. */
function halfOpen(t: ReturnType<typeof setup>, route = A) {
  t.breaker.outcome(route, "r0", "failure", "upstream 529");
  t.clock.advance(15_000);
  expect(t.breaker.entry(route).state).toBe("half-open");
}

describe("closed → open", () => {
  test("one failure opens a route at the default threshold, refusing with the time left and the reason", () => {
    const t = setup();
    expect(t.breaker.admit(A, "r1")).toEqual({ admitted: true });
    t.breaker.outcome(A, "r1", "failure", "upstream 529");
    t.clock.advance(4_000);
    expect(t.breaker.admit(A, "r2")).toEqual({
      admitted: false,
      block: { kind: "open", remainingMs: 11_000, reason: "upstream 529" },
    });
    expect(t.breaker.admit(B, "r2")).toEqual({ admitted: true });
    expect(t.kinds()).toEqual(["route_opened"]);
    expect(t.events[0]!.message).toContain("anthropic / http / claude-sonnet");
    expect(t.events[0]!.route).toEqual(A);
  });

  test("failures open only once they are consecutive up to the threshold", () => {
    const t = setup({ threshold: 3 });
    t.breaker.outcome(A, "r1", "failure", "x");
    t.breaker.outcome(A, "r2", "failure", "x");
    t.breaker.outcome(A, "r3", "success");
    t.breaker.outcome(A, "r4", "failure", "x");
    t.breaker.outcome(A, "r5", "failure", "x");
    expect(t.breaker.entry(A)).toMatchObject({ state: "closed", consecutiveFailures: 2 });
    t.breaker.outcome(A, "r6", "failure", "x");
    expect(t.breaker.entry(A)).toMatchObject({ state: "open", consecutiveFailures: 3 });
  });

  test("a neutral outcome changes nothing", () => {
    const t = setup({ threshold: 2 });
    t.breaker.outcome(A, "r1", "failure", "timeout");
    const before = t.breaker.entry(A);
    const changes = t.changes();
    t.breaker.outcome(A, "r2", "neutral", "bad request");
    expect(t.breaker.entry(A)).toEqual(before);
    expect(t.changes()).toBe(changes);
  });

  test("a success zeroes the count and clears the reason", () => {
    const t = setup({ threshold: 2 });
    t.breaker.outcome(A, "r1", "failure", "timeout");
    expect(t.breaker.entry(A)).toMatchObject({ consecutiveFailures: 1, reason: "timeout" });
    t.breaker.outcome(A, "r2", "success");
    expect(t.breaker.entry(A)).toMatchObject({ state: "closed", consecutiveFailures: 0, reason: "" });
  });

  test("a failure without a reason still explains the refusal", () => {
    const t = setup();
    t.breaker.outcome(A, "r1", "failure");
    expect(t.breaker.blocked(A)).toMatchObject({ kind: "open", reason: "failure" });
  });

  test("while open, outcomes of runs admitted earlier are ignored", () => {
    const t = setup();
    t.breaker.admit(A, "early");
    t.breaker.outcome(A, "r1", "failure", "x");
    t.breaker.outcome(A, "early", "success");
    expect(t.breaker.entry(A).state).toBe("open");
  });

  test("a cooldown of 0 disables the breaker: it always admits and never opens", () => {
    const t = setup({ cooldownMs: 0 });
    for (let i = 0; i < 5; i++) t.breaker.outcome(A, `r${i}`, "failure", "x");
    expect(t.breaker.entry(A).state).toBe("closed");
    expect(t.breaker.admit(A, "r9")).toEqual({ admitted: true });
    expect(t.kinds()).toEqual([]);
  });

  test("disabling the breaker lets open and half-open routes through at once", () => {
    const t = setup();
    halfOpen(t, B);
    t.breaker.admit(B, "probe");
    t.breaker.outcome(A, "r1", "failure", "x");
    expect(t.breaker.entry(A).state).toBe("open");
    t.breaker.setSettings({ cooldownMs: 0 });
    expect(t.breaker.admit(A, "r2")).toEqual({ admitted: true });
    expect(t.breaker.admit(B, "r3")).toEqual({ admitted: true });
    expect(t.breaker.snapshot().map((e) => e.state)).toEqual(["closed", "closed"]);
    expect(t.clock.pending()).toBe(0);
  });
});

describe("open → half-open → closed/open", () => {
  test("the open period ends on a clock timer, so listeners hear of it without a read", () => {
    const t = setup();
    t.breaker.outcome(A, "r1", "failure", "x");
    t.clock.advance(14_999);
    expect(t.kinds()).toEqual(["route_opened"]);
    const changes = t.changes();
    t.clock.advance(1);
    expect(t.kinds()).toEqual(["route_opened", "route_half_open"]);
    expect(t.changes()).toBe(changes + 1);
  });

  test("reads are never stale even when no timer has fired", () => {
    const clock = createFakeClock();
    // A clock whose timers never fire: only the lazy read path can show half-open.
    const breaker = createRouteBreaker({
      clock: { now: clock.now, setTimeout: () => 0, clearTimeout: () => {} },
      settings: { threshold: 1, cooldownMs: 1_000 },
    });
    breaker.outcome(A, "r1", "failure", "x");
    clock.advance(1_000);
    expect(breaker.entry(A)).toMatchObject({ state: "half-open", remainingMs: 0 });
    expect(breaker.snapshot()[0]!.state).toBe("half-open");
  });

  test("the first admission claims the probe; every other one is refused as probing", () => {
    const t = setup();
    halfOpen(t);
    expect(t.breaker.admit(A, "p1")).toEqual({ admitted: true });
    expect(t.breaker.admit(A, "p2")).toEqual({ admitted: false, block: { kind: "probing", reason: "upstream 529" } });
    expect(t.breaker.admit(A, "p1")).toEqual({ admitted: true });
    expect(t.breaker.entry(A).probeOwner).toBe("p1");
  });

  test("probe success closes the route", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    expect(t.breaker.outcome(A, "p1", "success")).toEqual({
      ...A,
      state: "closed",
      remainingMs: 0,
      reason: "",
      consecutiveFailures: 0,
    });
    expect(t.kinds()).toEqual(["route_opened", "route_half_open", "route_closed"]);
  });

  test("probe failure opens again for a fresh cooldown", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    t.clock.advance(5_000);
    t.breaker.outcome(A, "p1", "failure", "still 529");
    expect(t.breaker.blocked(A)).toEqual({ kind: "open", remainingMs: 15_000, reason: "still 529" });
    expect(t.breaker.entry(A).consecutiveFailures).toBe(2);
  });

  test("while half-open only the probe's outcome counts", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    t.breaker.outcome(A, "other", "success");
    t.breaker.outcome(A, "other", "failure", "y");
    expect(t.breaker.entry(A)).toMatchObject({ state: "half-open", probeOwner: "p1", consecutiveFailures: 1 });
  });

  test("a neutral probe hands the probe back without changing the route", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    t.breaker.outcome(A, "p1", "neutral");
    expect(t.breaker.entry(A)).toMatchObject({ state: "half-open", consecutiveFailures: 1 });
    expect(t.breaker.admit(A, "p2")).toEqual({ admitted: true });
  });

  test("new settings apply to the next opening, not the current one", () => {
    const t = setup();
    t.breaker.outcome(A, "r1", "failure", "x");
    t.breaker.setSettings({ cooldownMs: 30_000, threshold: 2 });
    t.clock.advance(15_000);
    expect(t.breaker.entry(A).state).toBe("half-open");
    t.breaker.admit(A, "p1");
    t.breaker.outcome(A, "p1", "success");
    t.breaker.outcome(A, "r2", "failure", "x");
    expect(t.breaker.entry(A).state).toBe("closed");
    t.breaker.outcome(A, "r3", "failure", "x");
    expect(t.breaker.blocked(A)).toMatchObject({ kind: "open", remainingMs: 30_000 });
  });
});

describe("regressions", () => {
  test("a half-open route never admits two probes", () => {
    const t = setup();
    halfOpen(t);
    const admitted = ["a", "b", "c", "d"].filter((id) => t.breaker.admit(A, id).admitted);
    expect(admitted).toEqual(["a"]);
  });

  test("re-opening keeps a working timer to half-open, and no stale timer ends it early", () => {
    const t = setup({ cooldownMs: 10_000 });
    t.breaker.outcome(A, "r0", "failure", "x");
    // Reset and fail again 4 s in: the first period's timer (due at 10 s) must not fire.
    t.clock.advance(4_000);
    t.breaker.reset(A);
    t.breaker.outcome(A, "r1", "failure", "y");
    t.clock.advance(6_000);
    expect(t.breaker.entry(A)).toMatchObject({ state: "open", remainingMs: 4_000 });
    expect(t.kinds().filter((k) => k === "route_half_open")).toEqual([]);
    t.clock.advance(4_000);
    expect(t.kinds().at(-1)).toBe("route_half_open");
    // A probe failure re-opens; that fresh period gets its own timer too.
    t.breaker.admit(A, "p1");
    t.breaker.outcome(A, "p1", "failure", "z");
    t.clock.advance(10_000);
    expect(t.kinds().filter((k) => k === "route_half_open")).toHaveLength(2);
    expect(t.clock.pending()).toBe(0);
  });

  test("a released claim lets the next admission probe", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    t.breaker.release(A, "someone-else");
    expect(t.breaker.admit(A, "p2").admitted).toBe(false);
    expect(t.breaker.release(A, "p1")).not.toHaveProperty("probeOwner");
    expect(t.breaker.admit(A, "p2")).toEqual({ admitted: true });
    expect(t.breaker.entry(A).probeOwner).toBe("p2");
  });

  test("an expired probe lets another run probe, and the expiry is not a failure", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "crashed");
    t.clock.advance(59_999);
    expect(t.breaker.admit(A, "p2").admitted).toBe(false);
    t.clock.advance(1);
    expect(t.breaker.entry(A)).toMatchObject({ state: "half-open", consecutiveFailures: 1 });
    expect(t.breaker.entry(A)).not.toHaveProperty("probeOwner");
    expect(t.breaker.admit(A, "p2")).toEqual({ admitted: true });
    // The crashed run reporting late is no longer the probe.
    t.breaker.outcome(A, "crashed", "failure", "late");
    expect(t.breaker.entry(A)).toMatchObject({ state: "half-open", probeOwner: "p2" });
  });

  test("a probe lives as long as the cooldown when that is longer than 60 s", () => {
    const t = setup({ cooldownMs: 90_000 });
    t.breaker.outcome(A, "r0", "failure", "x");
    t.clock.advance(90_000);
    t.breaker.admit(A, "p1");
    t.clock.advance(89_999);
    expect(t.breaker.entry(A).probeOwner).toBe("p1");
    t.clock.advance(1);
    expect(t.breaker.entry(A)).not.toHaveProperty("probeOwner");
  });

  test("blocked never claims the probe", () => {
    const t = setup();
    halfOpen(t);
    expect(t.breaker.blocked(A)).toBeUndefined();
    expect(t.breaker.blocked(A)).toBeUndefined();
    expect(t.breaker.entry(A)).not.toHaveProperty("probeOwner");
    t.breaker.admit(A, "p1");
    expect(t.breaker.blocked(A)).toEqual({ kind: "probing", reason: "upstream 529" });
  });
});

describe("snapshot and keys", () => {
  test("entries carry optional fields only when they apply", () => {
    const t = setup();
    t.breaker.admit(B, "r1");
    t.breaker.outcome(A, "r1", "failure", "x");
    const [closed, open] = t.breaker.snapshot();
    expect(open).toEqual({
      ...A,
      state: "open",
      remainingMs: 15_000,
      openUntil: t.clock.now() + 15_000,
      reason: "x",
      consecutiveFailures: 1,
    });
    expect(Object.keys(closed!).sort()).toEqual(
      ["consecutiveFailures", "modelId", "reason", "remainingMs", "runtimeId", "state", "targetId"].sort(),
    );
  });

  test("routes whose joined ids look alike stay apart", () => {
    const t = setup();
    t.breaker.outcome({ targetId: "a/b", runtimeId: "c", modelId: "d" }, "r1", "failure", "x");
    expect(t.breaker.entry({ targetId: "a", runtimeId: "b/c", modelId: "d" }).state).toBe("closed");
    expect(t.breaker.snapshot()).toHaveLength(1);
  });

  test("read-only views do not add routes to the snapshot; admissions do", () => {
    const t = setup();
    t.breaker.blocked(A);
    t.breaker.entry(A);
    expect(t.breaker.snapshot()).toEqual([]);
    t.breaker.admit(A, "r1");
    expect(t.breaker.snapshot()).toHaveLength(1);
  });

  test("reset closes a route by hand, with no failures and no probe", () => {
    const t = setup();
    halfOpen(t);
    t.breaker.admit(A, "p1");
    expect(t.breaker.reset(A)).toEqual({ ...A, state: "closed", remainingMs: 0, reason: "", consecutiveFailures: 0 });
    expect(t.events.at(-1)!.message).toMatch(/closed by hand/);
    expect(t.clock.pending()).toBe(0);
  });

  test("dispose cancels every timer", () => {
    const t = setup();
    t.breaker.outcome(A, "r1", "failure", "x");
    t.breaker.dispose();
    expect(t.clock.pending()).toBe(0);
  });
});

test("property: random traffic never admits while open and never has two probes", () => {
  const route = fc.constantFrom(A, B);
  const run = fc.constantFrom("r1", "r2", "r3");
  const op = fc.oneof(
    fc.record({ op: fc.constant("admit" as const), route, run }),
    fc.record({
      op: fc.constant("outcome" as const),
      route,
      run,
      outcome: fc.constantFrom<RouteOutcome[]>("success", "failure", "neutral"),
    }),
    fc.record({ op: fc.constant("release" as const), route, run }),
    fc.record({ op: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 70_000 }) }),
    fc.record({ op: fc.constant("blocked" as const), route }),
  );
  const settings = fc.record({
    threshold: fc.integer({ min: 1, max: 3 }),
    cooldownMs: fc.constantFrom(0, 1_000, 15_000),
  });
  fc.assert(
    fc.property(settings, fc.array(op, { maxLength: 60 }), ({ threshold, cooldownMs }, ops) => {
      const clock = createFakeClock();
      const breaker = createRouteBreaker({ clock, settings: { threshold, cooldownMs } });
      for (const step of ops) {
        if (step.op === "advance") clock.advance(step.ms);
        else if (step.op === "outcome") breaker.outcome(step.route, step.run, step.outcome);
        else if (step.op === "release") breaker.release(step.route, step.run);
        else if (step.op === "blocked") {
          const owner = breaker.entry(step.route).probeOwner;
          breaker.blocked(step.route);
          expect(breaker.entry(step.route).probeOwner).toBe(owner);
        } else {
          const before = breaker.entry(step.route);
          const result = breaker.admit(step.route, step.run);
          if (before.state === "open") expect(result.admitted).toBe(false);
          if (before.probeOwner !== undefined && before.probeOwner !== step.run) expect(result.admitted).toBe(false);
          if (before.state === "half-open" && result.admitted) {
            expect(breaker.entry(step.route).probeOwner).toBe(step.run);
          }
        }
        for (const e of breaker.snapshot()) {
          expect("openUntil" in e).toBe(e.state === "open");
          if (e.probeOwner !== undefined) expect(e.state).toBe("half-open");
          if (cooldownMs === 0) expect(e.state).toBe("closed");
          expect(e.remainingMs).toBeGreaterThanOrEqual(0);
        }
      }
      breaker.dispose();
    }),
    propertyRuns(300),
  );
}, PROPERTY_TIMEOUT_MS);
