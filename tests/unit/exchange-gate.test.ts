// The proxy's gate protocol below the transport (electron/service/exchange-gate.ts), on the
// fake clock: blocked → acquire → admit → (forward) → settle with the verdict, exactly once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openExchange, type AdmittedExchange, type ExchangeStart } from "../../electron/service/exchange-gate";
import { HeadroomService } from "../../electron/service/headroom-service";
import { openSettings } from "../../electron/settings/settings-store";
import { createFakeClock, type FakeClock } from "../support/fake-clock";
import { flush } from "../support/pool-harness";
import { identify, type AgentIdentity } from "../../electron/agents/agent-identity";

let dir: string;
let clock: FakeClock;
let service: HeadroomService;
let ids = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-exchange-"));
  clock = createFakeClock();
  service = new HeadroomService({ store: openSettings({ dir }), clock, newId: () => `L${++ids}` });
  service.setLimit({ providerId: "anthropic", limit: 1 });
});

afterEach(() => {
  service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const route = { targetId: "anthropic", runtimeId: "http", modelId: "claude" };
const openNow = (signal = new AbortController().signal, agent?: AgentIdentity) =>
  openExchange(service, { providerId: "anthropic", modelId: "claude", watchClient: () => ({ signal, stop: () => undefined }), ...(agent ? { agent } : {}) }, () => `run-${++ids}`);
const open = (signal?: AbortSignal) => Promise.resolve(openNow(signal));

function admitted(start: ExchangeStart): AdmittedExchange {
  if (start.kind !== "admitted") throw new Error(`expected an admission, got ${start.kind}`);
  return start.exchange;
}

describe("an exchange through the gate", () => {
  test("holds the provider's slot until it finishes; the next one goes in after the cooldown", async () => {
    const first = admitted(await open());
    expect(service.statusOf("anthropic")).toMatchObject({ active: 1 });
    let second: ExchangeStart | undefined;
    void open().then((start) => (second = start));
    await flush();
    expect(service.statusOf("anthropic")).toMatchObject({ queued: 1 });

    first.finish({ lease: "success", route: "success" });
    await flush();
    expect(second).toBeUndefined(); // the slot recycles for 350 ms first
    clock.advance(350);
    await flush();
    expect(second?.kind).toBe("admitted");
  });

  test("a free slot on a local route is taken at once, counted for its agent like a queued one", async () => {
    const agent = identify({ header: "reviewer" });
    const start = openNow(undefined, agent);
    // No promise: the proxy forwards in the same turn of the loop (issue 27).
    expect(start).not.toBeInstanceOf(Promise);
    const exchange = admitted(start as ExchangeStart);
    expect(service.statusOf("anthropic")).toMatchObject({ active: 1, queued: 0 });
    expect(service.agents().agents).toEqual([expect.objectContaining({ key: "reviewer", providerId: "anthropic", state: "running" })]);
    expect(service.leaseAgent(exchange.leaseId)).toBe("reviewer");
    // The slot is taken: the next one must queue, so it is a promise.
    const leaving = new AbortController();
    const next = openNow(leaving.signal);
    expect(next).toBeInstanceOf(Promise);
    leaving.abort();
    expect(await next).toEqual({ kind: "gone" });
    exchange.finish({ lease: "success", route: "success" });
    expect(service.agents().agents.find((seen) => seen.key === "reviewer")).toMatchObject({ state: "idle" });
  });

  test("a blocked route is refused at once and takes no slot", async () => {
    service.routeOutcome({ ...route, runId: "earlier", outcome: "failure", reason: "upstream 529" });
    const start = await open();
    expect(start).toMatchObject({ kind: "refused", block: { kind: "open", reason: "upstream 529" } });
    expect(service.statusOf("anthropic")).toMatchObject({ active: 0, recycling: 0 });
    clock.advance(15_000); // the breaker's default cooldown: the probe may go
    expect((await open()).kind).toBe("admitted");
  });

  test("a 429 verdict pauses the provider for its Retry-After and leaves the route closed", async () => {
    const exchange = admitted(await open());
    const at = clock.now();
    exchange.finish({ lease: "rate_limited", retryAfterMs: 7_000, route: "neutral" });
    expect(service.statusOf("anthropic")).toMatchObject({ paused: true, pausedUntil: at + 7_000 });
    expect(service.routes().routes[0]).toMatchObject({ ...route, state: "closed", consecutiveFailures: 0 });
  });

  test("a route failure opens the route for its cooldown", async () => {
    admitted(await open()).finish({ lease: "failure", route: "failure", reason: "upstream answered 503" });
    expect(service.routes().routes[0]).toMatchObject({ ...route, state: "open", reason: "upstream answered 503" });
  });

  test("a client that leaves while queued leaves the queue and holds nothing", async () => {
    const first = admitted(await open());
    const leaving = new AbortController();
    const pending = open(leaving.signal);
    await flush();
    leaving.abort();
    expect(await pending).toEqual({ kind: "gone" });
    first.finish({ lease: "success", route: "success" });
    clock.advance(350);
    expect(service.statusOf("anthropic")).toMatchObject({ active: 0, queued: 0, recycling: 0 });
  });

  test("cancel gives the slot back at once, without cooldown, and the probe claim with it", async () => {
    const exchange = admitted(await open());
    exchange.cancel();
    expect(service.statusOf("anthropic")).toMatchObject({ active: 0, recycling: 0 });
    expect((await open()).kind).toBe("admitted");
  });

  test("settling twice changes nothing the second time", async () => {
    const exchange = admitted(await open());
    exchange.finish({ lease: "success", route: "success" });
    exchange.finish({ lease: "rate_limited", route: "failure", reason: "late" });
    exchange.cancel();
    expect(service.statusOf("anthropic")).toMatchObject({ paused: false, active: 0, recycling: 1 });
    expect(service.routes().routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  });

  test("an abandoned exchange recycles its slot and credits nothing to the route", async () => {
    const exchange = admitted(await open());
    exchange.finish({ lease: "abandoned", route: "release" });
    expect(service.statusOf("anthropic")).toMatchObject({ active: 0, recycling: 1, paused: false });
    expect(service.routes().routes.every((r) => r.consecutiveFailures === 0 && r.state === "closed")).toBe(true);
  });
});
