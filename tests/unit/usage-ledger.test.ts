import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openUsageFile } from "../../electron/agents/usage-file";
import { HOUR_MS, UsageLedger } from "../../electron/agents/usage-ledger";
import { createFakeClock } from "../support/fake-clock";

const start = 1_700_000_000_000 - (1_700_000_000_000 % HOUR_MS);
const tokens = (input: number, output = 0) => ({ input, output, cacheRead: 0, cacheWrite: 0 });

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

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
  expect(ledger.stored().map((series) => series.agent)).toEqual(["b"]);
});

test("the usage file is written at most every 5 s and at close, and read back whole", () => {
  dir = mkdtempSync(join(tmpdir(), "headroom-usage-"));
  const clock = createFakeClock(start);
  const ledger = new UsageLedger();
  const file = openUsageFile(dir, () => ledger.stored(), clock);
  const count = () => {
    ledger.add(clock.now(), { providerId: "p", agent: "a", model: "m", tokens: tokens(1) });
    file.changed();
  };
  const onDisk = () => (JSON.parse(readFileSync(file.path, "utf8")) as { series: { requests: number }[] }).series[0]?.requests;
  count();
  clock.advance(4_999);
  expect(() => readFileSync(file.path)).toThrow();
  count();
  clock.advance(1);
  expect(onDisk()).toBe(2);
  count();
  file.close();
  expect(onDisk()).toBe(3);
  const again = new UsageLedger();
  again.restore(openUsageFile(dir, () => [], clock).loaded, clock.now());
  expect(again.rows(start, "agent")).toEqual(ledger.rows(start, "agent"));
});

test("cost and unpriced requests add up with the tokens, persist, and rows of plan providers say API-equivalent", () => {
  dir = mkdtempSync(join(tmpdir(), "headroom-usage-"));
  const clock = createFakeClock(start);
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

  const file = openUsageFile(dir, () => ledger.stored(), clock);
  file.changed();
  file.close();
  const again = new UsageLedger();
  again.restore(openUsageFile(dir, () => [], clock).loaded, clock.now());
  expect(again.rows(start, "provider", onPlan)).toEqual(byProvider);
});

test("a usage file written before costs were counted reads as nothing priced", () => {
  dir = mkdtempSync(join(tmpdir(), "headroom-usage-"));
  const old = { hour: start, providerId: "p", agent: "a", model: "m", requests: 3, rateLimited: 0, errors: 0, tokens: tokens(7) };
  writeFileSync(join(dir, "usage.json"), JSON.stringify({ schemaVersion: 1, series: [old] }));
  const ledger = new UsageLedger();
  ledger.restore(openUsageFile(dir, () => [], createFakeClock(start)).loaded, start);
  expect(ledger.rows(start, "agent")).toEqual([{ agent: "a", requests: 3, rateLimited: 0, errors: 0, tokens: tokens(7), costUsd: 0, unpriced: 0 }]);
});
