// SPEC §9: an agent's tokens are counted over the provider's binding plan window when a reading
// named one (SPEC §8), else over the last 5 h.
import { expect, test } from "vitest";
import { identify } from "../../electron/agents/agent-identity";
import { tokenWindowStart } from "../../electron/agents/token-window";
import { AgentsService } from "../../electron/service/agents-service";
import type { PlanWindow } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 11, 3, 12, 0, 0);
const window = (name: string, resetsAt: number, binding = true): PlanWindow => ({ name, resetsAt, seenAt: now, ...(binding ? { binding: true as const } : {}) });

test("the binding window's start is its reset less its length; without one, the last 5 h", () => {
  expect(tokenWindowStart([window("5h", now + 2 * HOUR)], now)).toBe(now - 3 * HOUR);
  expect(tokenWindowStart([window("5h", now + HOUR, false), window("7d", now + 24 * HOUR)], now)).toBe(now - 6 * 24 * HOUR);
  expect(tokenWindowStart([window("day", now + 10 * HOUR)], now)).toBe(now - 14 * HOUR);
  // Not binding, reset already passed, or a length not known here: the 5 h.
  expect(tokenWindowStart([window("7d", now + HOUR, false)], now)).toBe(now - 5 * HOUR);
  expect(tokenWindowStart([window("5h", now - 1)], now)).toBe(now - 5 * HOUR);
  expect(tokenWindowStart([window("primary", now + HOUR)], now)).toBe(now - 5 * HOUR);
  expect(tokenWindowStart(undefined, now)).toBe(now - 5 * HOUR);
});

test("an agent's entry counts its tokens since the window began", async () => {
  const clock = createFakeClock(now - 6 * HOUR);
  let windows: PlanWindow[] | undefined;
  const book = new AgentsService({
    clock,
    pools: () => [],
    onChange: () => {},
    onTokens: () => {},
    windowStart: (_providerId, at) => tokenWindowStart(windows, at),
  });
  const agent = identify({ header: "migrator" });
  const answer = { providerId: "anthropic", agent, model: "claude-test", outcome: "success" as const, tokens: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 } };
  book.counted(answer);
  clock.advance(6 * HOUR);
  await book.acquiring({ providerId: "anthropic", agent }, async () => ({ leaseId: "lease-1", providerId: "anthropic", admittedAt: clock.now() }));
  book.counted(answer);
  const tokensNow = () => book.agents().agents.find((entry) => entry.label === "migrator")?.tokens.input;
  expect(tokensNow()).toBe(100); // the last 5 h
  windows = [{ name: "7d", resetsAt: clock.now() + 24 * HOUR, seenAt: clock.now(), binding: true }];
  expect(tokensNow()).toBe(200); // the weekly window began six days ago
});
