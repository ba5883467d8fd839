import { afterEach, beforeEach, expect, test } from "vitest";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const route = { targetId: "anthropic", runtimeId: "http", modelId: "claude-sonnet" };

test("a failure opens the route: admissions get 409 with the remaining time, Reset closes it", async () => {
  expect(await t.client.routes()).toEqual({ routes: [], settings: { threshold: 1, cooldownMs: 15000 } });
  expect(await t.client.routeAdmit(route, "run-1")).toEqual({ admitted: true });
  const opened = await t.client.routeOutcome(route, "run-1", "failure", "529 overloaded");
  expect(opened).toMatchObject({ ...route, state: "open", consecutiveFailures: 1, reason: "529 overloaded" });
  expect(opened.openUntil).toBeGreaterThan(Date.now());

  const refused = await t.client.routeAdmit(route, "run-2");
  expect(refused.admitted).toBe(false);
  if (refused.admitted) return;
  expect(refused.block.kind).toBe("open");
  if (refused.block.kind === "open") expect(refused.block.remainingMs).toBeGreaterThan(14_000);

  const reset = await t.client.routeReset(route);
  expect(reset).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  expect(await t.client.routeAdmit(route, "run-3")).toEqual({ admitted: true });
  const kinds = (await t.client.history()).events.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["route_opened", "route_closed"]));
});

test("a neutral outcome changes nothing; a threshold of 2 needs two failures", async () => {
  expect(await t.client.setRouteSettings({ threshold: 2 })).toEqual({ threshold: 2, cooldownMs: 15000 });
  await t.client.routeAdmit(route, "r1");
  expect(await t.client.routeOutcome(route, "r1", "neutral")).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  await t.client.routeOutcome(route, "r1", "failure");
  expect((await t.client.routes()).routes[0]).toMatchObject({ state: "closed", consecutiveFailures: 1 });
  await t.client.routeOutcome(route, "r2", "failure");
  expect((await t.client.routes()).routes[0]).toMatchObject({ state: "open", consecutiveFailures: 2 });
});

test("breaker settings persist across a restart; route states do not", async () => {
  await t.client.setRouteSettings({ threshold: 3, cooldownMs: 500 });
  await t.client.routeOutcome(route, "r1", "failure");
  await t.stop();
  t = await startTestHost({ dataDir: t.dataDir });
  expect(await t.client.routes()).toEqual({ routes: [], settings: { threshold: 3, cooldownMs: 500 } });
});
