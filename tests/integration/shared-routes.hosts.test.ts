// SPEC §2 across hosts, wired end to end: two real hosts (HTTP API, settings on disk) on one
// real redis-server share a provider, and with it the breakers of its routes. What a user sees:
// a failure reported on one host refuses the route on the other, GET /routes on both shows it,
// one probe across both hosts, and a provider made local again judges its routes locally.
import { expect, test } from "vitest";
import type { RouteKey } from "../../shared/types";
import { useSharedHosts } from "../support/shared-hosts";
import { freshPrefix } from "../support/shared-pool-harness";
import { eventually, type TestHost } from "../support/test-host";

const ROUTE: RouteKey = { targetId: "anthropic", runtimeId: "http", modelId: "claude-opus" };
const { host } = useSharedHosts();

const routeOn = async (h: TestHost) => (await h.client.routes()).routes.find((r) => r.targetId === ROUTE.targetId);

test("a route of a shared provider opens on both hosts, gives one probe across them, and is local again when the provider is", async () => {
  const prefix = freshPrefix();
  const [a, b] = [await host("laptop", prefix), await host("devbox", prefix)];
  await a.client.setRouteSettings({ cooldownMs: 1_000 }); // seeded into Redis when a shares first
  for (const h of [a, b]) {
    await h.client.setLimit("anthropic", 2);
    await h.client.setProvider("anthropic", { shared: true });
  }

  await eventually(async () => expect(await a.client.routeAdmit(ROUTE, "warm-up")).toEqual({ admitted: true }), 10_000);
  await a.client.routeOutcome(ROUTE, "run-1", "failure", "HTTP 529 overloaded");
  const refused = await b.client.routeAdmit(ROUTE, "run-2");
  expect(refused).toMatchObject({ admitted: false, block: { kind: "open", reason: "HTTP 529 overloaded" } });
  await eventually(async () => expect(await routeOn(b)).toMatchObject({ state: "open", consecutiveFailures: 1 }));
  expect((await b.client.routes()).settings.cooldownMs).toBe(15_000); // b's own settings stay b's

  await eventually(async () => expect(await routeOn(a)).toMatchObject({ state: "half-open" }), 10_000);
  const [onA, onB] = await Promise.all([a.client.routeAdmit(ROUTE, "probe-a"), b.client.routeAdmit(ROUTE, "probe-b")]);
  expect([onA.admitted, onB.admitted].sort()).toEqual([false, true]);
  const [prober, probeId] = onA.admitted ? [a, "probe-a"] : [b, "probe-b"];
  await eventually(async () => expect((await routeOn(a))?.probeOwner).toBe(probeId));
  await prober.client.routeOutcome(ROUTE, probeId, "failure", "HTTP 529 again");
  await eventually(async () => expect(await routeOn(b)).toMatchObject({ state: "open", reason: "HTTP 529 again" }));

  await a.client.setProvider("anthropic", { shared: false });
  expect(await a.client.routeAdmit(ROUTE, "local")).toEqual({ admitted: true }); // a's own breaker saw none of it
  expect(await b.client.routeAdmit(ROUTE, "shared")).toMatchObject({ admitted: false, block: { kind: "open" } });
});
