import { expect, test } from "vitest";
import { UsageDays } from "../../electron/agents/usage-days";
import { HOUR_MS, UsageLedger } from "../../electron/agents/usage-ledger";

const start = 1_700_000_000_000 - (1_700_000_000_000 % HOUR_MS);
const tokens = (input: number, output = 0) => ({ input, output, cacheRead: 0, cacheWrite: 0 });

test("counts add up per agent, provider and model, and the last N hours are what is asked for", () => {
  const ledger = new UsageLedger();
  ledger.add(start, { providerId: "anthropic", agent: "claude · ~/api", model: "opus", tokens: tokens(100, 10) });
  ledger.add(start + 1, { providerId: "anthropic", agent: "claude · ~/api", model: "haiku", rateLimited: true });
  ledger.add(start + 2 * HOUR_MS, { providerId: "openai", agent: "codex · ~/web", model: "gpt-5", error: true, tokens: tokens(5, 500) });
  expect(ledger.rows(start, "agent")).toEqual([
    { agent: "codex · ~/web", requests: 1, rateLimited: 0, errors: 1, tokens: tokens(5, 500), costUsd: 0, unpriced: 0 },
    { agent: "claude · ~/api", requests: 2, rateLimited: 1, errors: 0, tokens: tokens(100, 10), costUsd: 0, unpriced: 0 },
  ]);
  expect(ledger.rows(start, "model").map((row) => row.model)).toEqual(["gpt-5", "opus", "haiku"]);
  expect(ledger.rows(start + 2 * HOUR_MS, "provider")).toEqual([{ providerId: "openai", requests: 1, rateLimited: 0, errors: 1, tokens: tokens(5, 500), costUsd: 0, unpriced: 0 }]);
});

test("past 1,000 agent × model series in a provider's hour the rest is counted as other", () => {
  const ledger = new UsageLedger(1_000);
  for (let i = 0; i < 1_010; i++) ledger.add(start, { providerId: "p", agent: `agent-${i}`, model: "m", tokens: tokens(1) });
  ledger.add(start, { providerId: "q", agent: "agent-1005", model: "m" });
  const rows = ledger.rows(start, "agent");
  expect(rows).toHaveLength(1_002);
  expect(rows.find((row) => row.agent === "other")).toMatchObject({ requests: 10, tokens: tokens(10) });
  expect(rows.find((row) => row.agent === "agent-1005")).toMatchObject({ requests: 1 });
});

test("buckets older than 8 days are dropped", () => {
  const ledger = new UsageLedger();
  ledger.add(start, { providerId: "p", agent: "a", model: "m" });
  ledger.add(start + 8 * 24 * HOUR_MS, { providerId: "p", agent: "b", model: "m" });
  expect(ledger.hourRows(start)).toBeUndefined();
  expect(ledger.rows(0, "agent").map((row) => row.agent)).toEqual(["b"]);
});

test("token sums stop at Number.MAX_SAFE_INTEGER instead of passing 2^53", () => {
  const ledger = new UsageLedger();
  const days = new UsageDays(() => "2026-12-06");
  const huge = { providerId: "p", agent: "a", model: "m", tokens: tokens(Number.MAX_SAFE_INTEGER - 1, 7) };
  for (const book of [ledger, days]) for (let i = 0; i < 3; i++) book.add(start, huge);
  expect(ledger.rows(start, "agent")[0]!.tokens).toEqual(tokens(Number.MAX_SAFE_INTEGER, 21));
  expect(days.total("p", "2026-12-06").tokens).toEqual(tokens(Number.MAX_SAFE_INTEGER, 21));
});

test("past the byte bound the oldest hours fold into other first, and no request is lost", () => {
  const ledger = new UsageLedger(1_000, 200_000);
  for (let hour = 0; hour < 10; hour++) {
    for (let i = 0; i < 100; i++) ledger.add(start + hour * HOUR_MS, { providerId: "p", agent: `agent-${hour}-${i}`, model: "m", tokens: tokens(i + 1) });
  }
  expect(ledger.storedBytes()).toBeLessThanOrEqual(200_000);
  const rows = ledger.rows(start, "agent");
  expect(rows.reduce((sum, row) => sum + row.requests, 0)).toBe(1_000);
  expect(rows.reduce((sum, row) => sum + row.tokens.input, 0)).toBe(10 * 5_050);
  // The newest hour keeps every name; the oldest keeps only its biggest.
  expect(Object.values(ledger.hourRows(start + 9 * HOUR_MS)!)[0]).toHaveLength(100);
  const oldest = Object.values(ledger.hourRows(start)!)[0]!;
  expect(oldest.length).toBeLessThanOrEqual(11);
  expect(oldest.map((row) => row.agent)).toContain("agent-0-99");
  expect(oldest.map((row) => row.agent)).toContain("other");
});

test("the per-day counter keeps today's names past its byte bound by compacting earlier dates, totals intact", () => {
  let date = "2026-12-01";
  const days = new UsageDays(() => date, 1_000, 100_000);
  for (const day of ["2026-12-01", "2026-12-02", "2026-12-03"]) {
    date = day;
    for (let i = 0; i < 100; i++) days.add(start, { providerId: "p", agent: `agent-${i}`, model: "m", project: `~/src/p${i}`, tokens: tokens(i + 1) });
  }
  const written = days.takeChanges()!;
  expect(written["2026-12-03"]!.p).toHaveLength(100);
  expect(written["2026-12-01"]!.p!.length).toBeLessThanOrEqual(11);
  for (const day of ["2026-12-01", "2026-12-02", "2026-12-03"]) expect(days.total("p", day)).toMatchObject({ requests: 100, tokens: tokens(5_050) });
});

test("cost and unpriced requests add up with the tokens, and rows of plan providers say API-equivalent", () => {
  const ledger = new UsageLedger();
  ledger.add(start, { providerId: "anthropic", agent: "claude", model: "claude-sonnet-4-5", tokens: tokens(1_000, 100), costUsd: 0.0045 });
  ledger.add(start, { providerId: "anthropic", agent: "claude", model: "claude-sonnet-4-5", tokens: tokens(1_000, 100), costUsd: 0.0045 });
  ledger.add(start, { providerId: "local", agent: "claude", model: "house-7b", tokens: tokens(50), unpriced: true });
  const onPlan = (providerId: string) => providerId === "anthropic";
  const byProvider = ledger.rows(start, "provider", onPlan);
  expect(byProvider.find((row) => row.providerId === "anthropic")).toMatchObject({ costUsd: 0.009, unpriced: 0, apiEquivalent: true });
  expect(byProvider.find((row) => row.providerId === "local")).toMatchObject({ costUsd: 0, unpriced: 1 });
  expect(byProvider.find((row) => row.providerId === "local")).not.toHaveProperty("apiEquivalent");
  // The agent's row mixes a plan and an API provider: not API-equivalent as a whole.
  expect(ledger.rows(start, "agent", onPlan)[0]).not.toHaveProperty("apiEquivalent");
});
