// A shared provider's route breakers across hosts (SPEC §2, §7), against a real redis-server
// on a fake clock. shared-breaker.differential.test.ts compares one host with the local breaker.
import { describe, expect, test } from "vitest";
import { SharedRouteBreaker } from "../../electron/shared-pool/shared-breaker";
import type { HistoryEvent, RouteKey } from "../../shared/types";
import { createFakeClock, type FakeClock } from "../support/fake-clock";
import { freshPrefix } from "../support/shared-pool-harness";
import { useRedis } from "../support/use-redis";

const redis = useRedis();

const ROUTE: RouteKey = { targetId: "anthropic", runtimeId: "claude-code", modelId: "opus" };

function host(clock: FakeClock, keyPrefix: string, events: Omit<HistoryEvent, "at">[] = []) {
  return new SharedRouteBreaker({ providerId: "anthropic", keyPrefix, redis: redis.link, clock, onEvent: (e) => events.push(e) });
}

describe("shared route breaker", () => {
  test("failures seen on two hosts open the route for both, and a half-open route gives one probe across hosts", async () => {
    const clock = createFakeClock();
    const keyPrefix = freshPrefix();
    const events: Omit<HistoryEvent, "at">[] = [];
    const a = host(clock, keyPrefix, events);
    const b = host(clock, keyPrefix, events);
    expect(await a.start({ threshold: 2, cooldownMs: 5_000 })).toEqual({ threshold: 2, cooldownMs: 5_000 });
    // Redis already holds the provider's breaker settings: they win over b's.
    expect(await b.start({ threshold: 9, cooldownMs: 1_000 })).toEqual({ threshold: 2, cooldownMs: 5_000 });

    await a.outcome(ROUTE, "run-a", "failure", "HTTP 529");
    await b.outcome(ROUTE, "run-b", "failure", "HTTP 529");
    expect(await a.admit(ROUTE, "run-a2")).toEqual({
      admitted: false,
      block: { kind: "open", remainingMs: 5_000, reason: "HTTP 529" },
    });

    clock.advance(5_000);
    const [onA, onB] = await Promise.all([a.admit(ROUTE, "probe-a"), b.admit(ROUTE, "probe-b")]);
    expect([onA.admitted, onB.admitted].sort()).toEqual([false, true]); // one probe, whichever asked first
    const prober = onA.admitted ? a : b;
    const probeId = onA.admitted ? "probe-a" : "probe-b";
    expect(await (prober === a ? b : a).blocked(ROUTE)).toEqual({ kind: "probing", reason: "HTTP 529" });

    expect(await prober.outcome(ROUTE, probeId, "success")).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    expect(await b.admit(ROUTE, "after")).toEqual({ admitted: true });
    // Each transition is recorded once, by the host whose call made it (a timer read it at 5 s).
    expect(events.map((e) => e.kind)).toEqual(["route_opened", "route_half_open", "route_closed"]);
    a.dispose();
    b.dispose();
  });
});
