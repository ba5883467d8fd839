// Two Headroom services sharing a provider's route breakers through a real redis-server
// (SPEC §2 across hosts, §7), on one fake clock: what one host reports, the other obeys; at
// the half-open instant exactly one of them gets the probe; local routes stay as they were.
// Every transport over the service is driven once: HTTP, IPC and the proxy's gate.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createApiClient } from "../../shared/api-client";
import type { SnapshotTopic } from "../../shared/contract";
import type { RouteKey } from "../../shared/types";
import { createApiServer } from "../../electron/http/api-server";
import { createChannelTable } from "../../electron/ipc/channel-table";
import { answer } from "../../electron/ipc/ipc-result";
import { openExchange } from "../../electron/service/exchange-gate";
import { HeadroomService } from "../../electron/service/headroom-service";
import { openSettings } from "../../electron/settings/settings-store";
import type { RedisLink } from "../../electron/shared-pool/redis-link";
import { SharedRouteBreaker } from "../../electron/shared-pool/shared-breaker";
import { createFakeClock, type FakeClock } from "../support/fake-clock";
import { connectRedis, freshPrefix } from "../support/shared-pool-harness";
import { eventually, removeDir, tempDir } from "../support/test-host";
import { useRedisServer } from "../support/use-redis";

const ROUTE: RouteKey = { targetId: "anthropic", runtimeId: "http", modelId: "claude-opus" };
const LOCAL: RouteKey = { targetId: "openai", runtimeId: "http", modelId: "gpt-5" };

interface Host {
  service: HeadroomService;
  breaker: SharedRouteBreaker;
  topics: SnapshotTopic[];
  logged: string[];
  /** Whether "anthropic" is shared on this host now (the registry's answer, in the service). */
  sharing: boolean;
}

const redis = useRedisServer();
let clock: FakeClock;
let links: RedisLink[] = [];
let dirs: string[] = [];
let a: Host;
let b: Host;

function startHost(keyPrefix: string): Host {
  const link = connectRedis(redis.server.url); // a connection of its own, as on another machine
  links.push(link);
  const dir = tempDir("headroom-shared-routes-");
  dirs.push(dir);
  const breaker = new SharedRouteBreaker({ providerId: "anthropic", keyPrefix, redis: link, clock });
  const parts = { breaker, topics: [] as SnapshotTopic[], logged: [] as string[], sharing: true };
  const service = new HeadroomService({
    store: openSettings({ dir }),
    clock,
    newId: randomUUID,
    sharedBreakerOf: (targetId) => (targetId === "anthropic" && parts.sharing ? breaker : undefined),
    log: (message) => parts.logged.push(message),
  });
  const host: Host = Object.assign(parts, { service });
  host.service.subscribe((topic) => host.topics.push(topic));
  return host;
}

const run = (runId: string, route: RouteKey = ROUTE) => ({ ...route, runId });
const failure = (runId: string, route: RouteKey = ROUTE) => ({ ...run(runId, route), outcome: "failure" as const, reason: "HTTP 529" });
const routeOf = (host: Host, route: RouteKey = ROUTE) =>
  host.service.routes().routes.find((r) => r.targetId === route.targetId && r.modelId === route.modelId);
const kinds = (host: Host) => host.service.historyEvents().events.map((e) => e.kind).reverse();

beforeEach(async () => {
  clock = createFakeClock();
  const keyPrefix = freshPrefix();
  a = startHost(keyPrefix);
  b = startHost(keyPrefix);
  a.service.setRouteSettings({ threshold: 2, cooldownMs: 5_000 }); // nothing shared yet: at once
  await a.service.updateRouteSharing("anthropic");
  await b.service.updateRouteSharing("anthropic");
});

afterEach(async () => {
  for (const host of [a, b]) {
    host.service.close();
    host.breaker.dispose();
  }
  await Promise.all(links.map((link) => link.close()));
  for (const dir of dirs) removeDir(dir);
  links = [];
  dirs = [];
});

describe("routes of a shared provider across two services", () => {
  test("failures reported through either service open the route for both, with the settings Redis holds", async () => {
    // a seeded Redis with its settings; b's own stay its own, but its shared routes obey Redis's.
    expect(b.service.routes().settings).toEqual({ threshold: 1, cooldownMs: 15_000 });
    expect(await b.breaker.settings()).toEqual({ threshold: 2, cooldownMs: 5_000 });

    await a.service.routeOutcome(failure("run-a"));
    expect(await b.service.routeAdmit(run("run-b0"))).toEqual({ admitted: true }); // one failure of two
    await b.service.routeOutcome(failure("run-b"));

    expect(await a.service.routeAdmit(run("run-a2"))).toEqual({
      admitted: false,
      block: { kind: "open", remainingMs: 5_000, reason: "HTTP 529" },
    });
    // b's call opened it: the transition is in b's history, and a's view learnt it from Redis.
    expect(kinds(b)).toEqual(["route_opened"]);
    expect(kinds(a)).toEqual([]);
    await eventually(() =>
      expect(routeOf(a)).toEqual({ ...ROUTE, state: "open", remainingMs: 5_000, openUntil: clock.now() + 5_000, reason: "HTTP 529", consecutiveFailures: 2 }),
    );
    expect(a.topics).toContain("routes");
  });

  test("a's view and its pushed routes follow a change made only on b (pub/sub)", async () => {
    const unused = { ...ROUTE, modelId: "never-used" };
    expect(await a.service.routeBlocked(unused)).toBeUndefined();
    expect(routeOf(a, unused)).toBeUndefined(); // a question about a route does not make one up
    await b.service.routeOutcome(failure("b1"));
    await eventually(() => expect(routeOf(a)).toMatchObject({ state: "closed", consecutiveFailures: 1 }));
    a.topics.length = 0;
    await b.service.routeOutcome(failure("b2"));
    await eventually(() => expect(routeOf(a)).toMatchObject({ state: "open", consecutiveFailures: 2 }));
    expect(a.topics).toContain("routes");
    clock.advance(2_000);
    expect(routeOf(a)).toMatchObject({ state: "open", remainingMs: 3_000 }); // counts down without Redis
  });

  test("at the half-open instant exactly one service gets the probe; its success closes the route for both", async () => {
    await a.service.routeOutcome(failure("a1"));
    await a.service.routeOutcome(failure("a2"));
    await eventually(() => expect(routeOf(b)).toMatchObject({ state: "open" }));

    clock.advance(5_000);
    await eventually(() => {
      expect(routeOf(a)).toMatchObject({ state: "half-open" });
      expect(routeOf(b)).toMatchObject({ state: "half-open" });
    });
    const [onA, onB] = await Promise.all([a.service.routeAdmit(run("probe-a")), b.service.routeAdmit(run("probe-b"))]);
    expect([onA.admitted, onB.admitted].sort()).toEqual([false, true]);
    const [prober, other, probeId] = onA.admitted ? [a, b, "probe-a"] : [b, a, "probe-b"];
    expect(await other.service.routeBlocked(ROUTE)).toEqual({ kind: "probing", reason: "HTTP 529" });
    await eventually(() => expect(routeOf(other)?.probeOwner).toBe(probeId));

    prober.service.settleRoute(run(probeId), { route: "success" }); // as the proxy reports it
    await eventually(() => {
      expect(routeOf(a)).toMatchObject({ state: "closed", consecutiveFailures: 0 });
      expect(routeOf(b)).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    });
    expect(await other.service.routeAdmit(run("after"))).toEqual({ admitted: true });
    // The half-open transition is told once, by whichever host read the route first.
    const halfOpen = [...kinds(a), ...kinds(b)].filter((kind) => kind === "route_half_open");
    expect(halfOpen).toHaveLength(1);
    expect(kinds(prober)).toContain("route_closed");
  });

  test("local routes answer at once, as before, and stay on their own host", async () => {
    await a.service.setRouteSettings({ threshold: 1 });
    const entry = a.service.routeOutcome(failure("x", LOCAL));
    expect(entry).not.toBeInstanceOf(Promise);
    expect(entry).toMatchObject({ ...LOCAL, state: "open", remainingMs: 5_000 });
    expect(a.service.routeAdmit(run("y", LOCAL))).toMatchObject({ admitted: false, block: { kind: "open" } });
    expect(routeOf(b, LOCAL)).toBeUndefined();
    await b.service.routeOutcome(failure("b1"));
    expect(routeOf(b, LOCAL)).toBeUndefined();
  });

  test("a settings change on one host reaches the shared breakers; a provider made local again uses the local breaker", async () => {
    expect(await a.service.setRouteSettings({ threshold: 1 })).toEqual({ threshold: 1, cooldownMs: 5_000 });
    expect(await b.breaker.settings()).toEqual({ threshold: 1, cooldownMs: 5_000 });
    expect(b.service.routes().settings).toEqual({ threshold: 1, cooldownMs: 15_000 }); // b's own settings untouched
    await b.service.routeOutcome(failure("b1"));
    expect(await b.service.routeAdmit(run("b2"))).toMatchObject({ admitted: false, block: { remainingMs: 5_000 } });

    b.sharing = false;
    await b.service.updateRouteSharing("anthropic");
    expect(b.service.routeAdmit(run("b3"))).toEqual({ admitted: true }); // b's local breaker never saw a failure
    expect(routeOf(b)).toMatchObject({ state: "closed" });
    await expect(a.service.routeAdmit(run("a1"))).resolves.toMatchObject({ admitted: false });
  });

  test("HTTP, IPC and the proxy's gate wait for a shared route's answer", async () => {
    await b.service.routeOutcome(failure("b1"));
    await b.service.routeOutcome(failure("b2"));

    const api = createApiServer({ service: () => a.service, token: "t", version: "test" });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    try {
      const client = createApiClient({ baseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, token: "t" });
      expect(await client.routeAdmit(ROUTE, "http-run")).toEqual({
        admitted: false,
        block: { kind: "open", remainingMs: 5_000, reason: "HTTP 529" },
      });
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }

    a.service.setLimit({ providerId: "anthropic", limit: 1 });
    const start = await openExchange(a.service, {
      providerId: "anthropic",
      modelId: ROUTE.modelId,
      watchClient: () => ({ signal: new AbortController().signal, stop: () => undefined }),
    });
    expect(start).toMatchObject({ kind: "refused", block: { kind: "open", reason: "HTTP 529" } });
    expect(a.service.statusOf("anthropic")).toMatchObject({ active: 0, recycling: 0 });

    const table = createChannelTable(a.service);
    expect(await answer(table, "route:reset", ROUTE)).toMatchObject({ ok: true, value: { ...ROUTE, state: "closed" } });
    expect(await b.service.routeAdmit(run("b3"))).toEqual({ admitted: true });
    expect(kinds(a)).toContain("route_closed");
    expect(a.logged).toEqual([]);
  });
});
