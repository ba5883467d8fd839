// SPEC §9 "Share of the window": on a plan each agent's entry shows its cost as API-equivalent
// and an estimate of its share of the binding window; without a price, weighted tokens decide.
import { expect, test } from "vitest";
import { identify } from "../../electron/agents/agent-identity";
import { tokenWindowStart } from "../../electron/agents/token-window";
import { AgentsService } from "../../electron/service/agents-service";
import type { PlanWindow } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 11, 3, 12, 0, 0);
const upstream = { host: "api.anthropic.com", format: "anthropic" as const };

function book(windows: PlanWindow[] | undefined) {
  const clock = createFakeClock(now);
  const service = new AgentsService({
    clock,
    pools: () => [],
    onChange: () => {},
    onTokens: () => {},
    windowStart: (_providerId, at) => tokenWindowStart(windows, at),
    windows: () => windows,
  });
  const answer = async (label: string, model: string, input: number, output: number) => {
    const agent = identify({ header: label });
    await service.acquiring({ providerId: "anthropic", agent }, async () => ({ leaseId: `lease-${label}-${model}`, providerId: "anthropic", admittedAt: clock.now() }));
    service.counted({ providerId: "anthropic", agent, model, outcome: "success", upstream, tokens: { input, output, cacheRead: 0, cacheWrite: 0 } });
  };
  const entry = (label: string) => service.agents().agents.find((one) => one.label === label);
  return { answer, entry };
}

const fiveHour = (usedPercent: number): PlanWindow => ({ name: "5h", usedPercent, resetsAt: now + 2 * HOUR, seenAt: now, binding: true });

test("on a plan, each agent's share of the 5-hour window is its part of the cost times the window's use", async () => {
  const { answer, entry } = book([fiveHour(40)]);
  // sonnet: 100,000 × $3 + 10,000 × $15 per million = $0.45; haiku: 100,000 × $1 + 10,000 × $5 = $0.15
  await answer("reviewer", "claude-sonnet-4-5", 100_000, 10_000);
  await answer("migrator", "claude-haiku-4-5", 100_000, 10_000);
  expect(entry("reviewer")).toMatchObject({ costUsd: expect.closeTo(0.45, 9), unpriced: 0, apiEquivalent: true, windowShare: { window: "5h", percent: 30 } });
  expect(entry("migrator")).toMatchObject({ costUsd: expect.closeTo(0.15, 9), apiEquivalent: true, windowShare: { window: "5h", percent: 10 } });
});

test("when any answer in the window had no price, every share is by weighted tokens instead", async () => {
  const { answer, entry } = book([fiveHour(50)]);
  await answer("reviewer", "claude-sonnet-4-5", 1_000, 0); // weight 1,000
  await answer("local", "house-model", 0, 600); // weight 5 × 600 = 3,000
  expect(entry("reviewer")?.windowShare).toEqual({ window: "5h", percent: 12.5 });
  expect(entry("local")).toMatchObject({ unpriced: 1, costUsd: 0, windowShare: { window: "5h", percent: 37.5 } });
});

test("on the API there is no share and the cost is not API-equivalent", async () => {
  const { answer, entry } = book(undefined);
  await answer("reviewer", "claude-sonnet-4-5", 1_000, 100);
  expect(entry("reviewer")).toMatchObject({ costUsd: expect.closeTo(0.0045, 12) });
  expect(entry("reviewer")).not.toHaveProperty("apiEquivalent");
  expect(entry("reviewer")).not.toHaveProperty("windowShare");
});
