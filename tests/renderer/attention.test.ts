import { expect, test } from "vitest";
import { formatDuration, formatRemaining } from "../../shared/duration";
import { attentionOf, needsOf, sortedProviderIds, sortedRouteKeys, titleOf } from "../../renderer/store/attention";
import { initialState, type HeadroomState } from "../../renderer/store/headroom-store";
import { routeKeyOf } from "../../renderer/store/route-key";
import type { ConcurrencyStatusEntry, RouteEntry } from "../../shared/types";
import { statusEntry } from "../support/status-entry";

function stateWith(entries: ConcurrencyStatusEntry[], routes: Partial<RouteEntry>[] = []): HeadroomState {
  const full = routes.map((r, i) => ({ targetId: "t", runtimeId: "http", modelId: `m${i}`, state: "closed", consecutiveFailures: 0, ...r }) as RouteEntry);
  return {
    ...initialState,
    providerIds: entries.map((e) => e.providerId),
    providers: Object.fromEntries(entries.map((e) => [e.providerId, e])),
    routeKeys: full.map(routeKeyOf),
    routes: Object.fromEntries(full.map((r) => [routeKeyOf(r), r])),
  };
}

test("durations read as people say them, from one formatter", () => {
  expect([350, 1_200, 15_000, 150_000, 600_000, 3_900_000].map(formatDuration)).toEqual(["350 ms", "1.2 s", "15 s", "2 min 30 s", "10 min", "1 h 5 min"]);
  expect(formatRemaining(14_001)).toBe("15 s");
  expect(formatRemaining(-5)).toBe("0 s");
});

test("cards keep their place by id whatever needs attention; the filter only narrows", () => {
  const state = stateWith([
    statusEntry("alpha"),
    statusEntry("queued", { queued: 2 }),
    statusEntry("reduced", { autoReduced: true, autoReducedFrom: 4 }),
    statusEntry("beta"),
    statusEntry("paused", { paused: true }),
  ]);
  expect(sortedProviderIds(state, "")).toEqual(["alpha", "beta", "paused", "queued", "reduced"]);
  expect(sortedProviderIds(state, " E ")).toEqual(["beta", "paused", "queued", "reduced"]);
});

test("open routes, then half-open, then the rest; the title names what needs attention", () => {
  const state = stateWith([statusEntry("anthropic", { paused: true, autoReduced: true }), statusEntry("openai", { autoReduced: true })], [
    { state: "closed" },
    { state: "half-open" },
    { state: "open" },
  ]);
  expect(sortedRouteKeys(state).map((key) => state.routes[key]!.state)).toEqual(["open", "half-open", "closed"]);
  expect(titleOf(attentionOf(state))).toBe("Headroom — anthropic paused, openai auto-reduced, 2 routes open");
  expect(titleOf(attentionOf(stateWith([statusEntry("calm")])))).toBe("Headroom");
});

test("the title says first when the host's Redis is unreachable, and nothing of Redis otherwise", () => {
  const paused = [statusEntry("anthropic", { paused: true, shared: true, hosts: 2 })];
  expect(titleOf(attentionOf({ ...stateWith(paused), redis: { connected: false, error: "ECONNREFUSED" } }))).toBe(
    "Headroom — Redis unreachable, anthropic paused",
  );
  expect(titleOf(attentionOf({ ...stateWith(paused), redis: { connected: true } }))).toBe("Headroom — anthropic paused");
  expect(titleOf(attentionOf(stateWith(paused)))).toBe("Headroom — anthropic paused");
});

test("the title says `Headroom — disconnected` while the host is away, and names used-up windows and missing upstreams", () => {
  const state = stateWith([
    statusEntry("anthropic", { paused: true, windows: [{ name: "5h", usedPercent: 100, status: "rejected", seenAt: 1 }] }),
    statusEntry("gemini", { upstreamFailures: { count: 3, lastError: "no upstream", lastAt: 1 } }),
  ]);
  expect(titleOf(attentionOf(state))).toBe("Headroom — anthropic 5-hour window used up, gemini has no working upstream");
  expect(titleOf(attentionOf({ ...state, connection: "reconnecting" }))).toBe("Headroom — disconnected");
});

test("Needs you names each item `<id>: <what>`: a reduction, a pause, a missing upstream, an open route, a notice", () => {
  const state = {
    ...stateWith(
      [
        statusEntry("anthropic", { autoReduced: true, autoReducedFrom: 4, limit: 3, paused: true, pausedUntil: 5_000 }),
        statusEntry("gemini", { upstreamFailures: { count: 1, lastError: "no upstream", lastAt: 1 } }),
        statusEntry("calm"),
      ],
      [{ targetId: "openai", modelId: "gpt-5", state: "open" }],
    ),
    notices: ["settings.json was corrupt and was moved aside"],
  };
  expect(needsOf(state).map((item) => item.name)).toEqual([
    "anthropic: paused",
    "anthropic: limit lowered from 4 to 3",
    "gemini: 1 request failed without a working upstream",
    "openai/http/gpt-5: route open",
    "Headroom: settings.json was corrupt and was moved aside",
  ]);
});

test("paying for extra usage (SPEC §8) is a Needs you item of its own", () => {
  const state = stateWith([statusEntry("anthropic", { overage: { since: 1_000 } }), statusEntry("calm")]);
  expect(needsOf(state)).toEqual([{ kind: "overage", key: "overage:anthropic", name: "anthropic: paying for extra usage", providerId: "anthropic", since: 1_000 }]);
});
