import { expect, test } from "vitest";
import type { RouteKey } from "../../shared/types";
import { createRouteBreaker, MAX_ROUTES } from "../../electron/engine/route-breaker";
import { createFakeClock } from "../support/fake-clock";

const route = (model: string): RouteKey => ({ targetId: "openai", runtimeId: "http", modelId: model });
const models = (breaker: ReturnType<typeof createRouteBreaker>) => new Set(breaker.snapshot().map((r) => r.modelId));

function setup() {
  const clock = createFakeClock();
  const breaker = createRouteBreaker({ clock, settings: { threshold: 1, cooldownMs: 15_000 } });
  return { clock, breaker };
}

test("model ids from clients cannot grow the route map past 10,000: the least recently used closed route goes", () => {
  const { breaker } = setup();
  for (let i = 0; i < MAX_ROUTES; i++) breaker.admit(route(`m${i}`), `r${i}`);
  breaker.admit(route("m0"), "again"); // m0 is used again: m1 is now the least recently used
  breaker.admit(route("newcomer"), "n");
  const kept = models(breaker);
  expect(kept.size).toBe(MAX_ROUTES);
  expect(kept.has("m0")).toBe(true);
  expect(kept.has("m1")).toBe(false);
  expect(kept.has("newcomer")).toBe(true);
});

test("open and half-open routes are never forgotten, however old", () => {
  const { clock, breaker } = setup();
  breaker.outcome(route("open-one"), "r", "failure", "upstream 529");
  breaker.outcome(route("probed"), "r", "failure", "upstream 529");
  clock.advance(15_000);
  expect(breaker.admit(route("probed"), "probe")).toEqual({ admitted: true }); // half-open, probe claimed
  breaker.outcome(route("open-one"), "r", "failure", "again"); // not the probe: stays half-open
  breaker.outcome(route("still-open"), "r", "failure", "upstream 500");
  for (let i = 0; i < MAX_ROUTES + 50; i++) breaker.admit(route(`m${i}`), `r${i}`);
  const entries = breaker.snapshot();
  expect(entries.length).toBe(MAX_ROUTES);
  const states = Object.fromEntries(entries.filter((e) => !e.modelId.startsWith("m")).map((e) => [e.modelId, e.state]));
  expect(states).toEqual({ "open-one": "half-open", probed: "half-open", "still-open": "open" });
  expect(breaker.admit(route("probed"), "other")).toMatchObject({ admitted: false, block: { kind: "probing" } });
});
