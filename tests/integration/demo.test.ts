import { expect, test } from "vitest";
import { createApiClient } from "../../shared/api-client";
import type { HistoryKind } from "../../shared/types";
import { cliEnvironment, DEMO_PROVIDER, startDemo } from "../../demo/demo";
import { sleep } from "../support/test-host";

const WANTED: HistoryKind[] = ["rate_limited", "paused", "reduced", "route_opened", "route_closed"];

test("the demo shows, within 20 s, a queue, a 429 pause, an auto-reduction and a route opening and closing", async () => {
  const demo = await startDemo({ port: 0, proxyPort: 0 });
  try {
    // The line `npm run demo` prints for the command line is all a client needs to reach it.
    const printed = Object.fromEntries(cliEnvironment(demo).split(" ").map((pair) => pair.split("=") as [string, string]));
    expect(Object.keys(printed)).toEqual(["HEADROOM_URL", "HEADROOM_TOKEN"]);
    const client = createApiClient({ baseUrl: printed.HEADROOM_URL!, token: printed.HEADROOM_TOKEN! });
    const deadline = Date.now() + 18_000;
    let maxQueued = 0;
    let sawReducedBanner = false;
    let kinds = new Set<HistoryKind>();
    while (Date.now() < deadline) {
      const entry = (await client.status()).providers.find((p) => p.providerId === DEMO_PROVIDER)!;
      maxQueued = Math.max(maxQueued, entry.queued);
      sawReducedBanner ||= entry.autoReduced && entry.notice !== undefined && !entry.noticeDismissed;
      kinds = new Set((await client.history()).events.map((e) => e.kind));
      if (WANTED.every((k) => kinds.has(k)) && maxQueued > 0) break;
      await sleep(100);
    }
    expect([...kinds]).toEqual(expect.arrayContaining(WANTED));
    expect(maxQueued).toBeGreaterThan(0);
    expect(sawReducedBanner).toBe(true);
    expect((await client.limit(DEMO_PROVIDER)).limit).toBe(3);
    expect(demo.tally.ok).toBeGreaterThan(0);
    // The fake provider's rate-limit headers reach the status (and so the card).
    const entry = (await client.status()).providers.find((p) => p.providerId === DEMO_PROVIDER)!;
    expect(entry.upstreamLimits?.requests).toMatchObject({ limit: 10_000, remaining: expect.any(Number) });
    // The agents list is alive: eight agents with their own names and projects, tokens counted,
    // and the headless one under `headroom run --resume` (SPEC §8).
    const { agents } = await client.agents();
    expect(new Set(agents.map((agent) => agent.label)).size).toBeGreaterThanOrEqual(9);
    expect(agents.some((agent) => agent.label.startsWith("nightly"))).toBe(true);
    expect(agents.map((agent) => agent.label)).toEqual(expect.arrayContaining(["claude · ~/src/api", "codex · ~/src/web"]));
    expect(agents.some((agent) => agent.tokens.output > 0)).toBe(true);
    // Its models are real names the price library knows, on a plan: costs show, API-equivalent.
    expect(agents.some((agent) => agent.costUsd > 0 && agent.apiEquivalent === true)).toBe(true);
  } finally {
    await demo.stop();
  }
}, 30_000);
