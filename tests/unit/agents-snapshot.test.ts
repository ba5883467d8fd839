// Issue 32 item 5: one `/agents` snapshot carries at most 500 agents (8,000 were 2.2 MB a push),
// running and waiting first, then the most recently seen, and says how many it left out.
import { expect, test } from "vitest";
import { identify } from "../../electron/agents/agent-identity";
import { AgentsService } from "../../electron/service/agents-service";
import { AGENTS_SHOWN_MAX } from "../../shared/agents";
import { createFakeClock } from "../support/fake-clock";

test("a snapshot of 600 recent agents carries the 500 seen last and says 100 were left out", async () => {
  const clock = createFakeClock();
  const service = new AgentsService({ clock, pools: () => [], onChange: () => {}, onTokens: () => {} });
  for (let i = 0; i < 600; i++) {
    clock.advance(1);
    await service.acquiring({ providerId: "anthropic", agent: identify({ header: `agent-${i}` }) }, async () => ({ leaseId: `l-${i}`, providerId: "anthropic", admittedAt: 0 }));
  }
  const view = service.agents();
  expect(AGENTS_SHOWN_MAX).toBe(500);
  expect(view.agents).toHaveLength(500);
  expect(view.omitted).toBe(100);
  expect(view.agents[0]!.label).toBe("agent-599");
  expect(view.agents.at(-1)!.label).toBe("agent-100");
  clock.advance(2 * 3_600_000); // an hour unseen: forgotten, and nothing left out
  expect(service.agents()).toEqual({ agents: [] });
});
