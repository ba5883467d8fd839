import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
    { agent: "codex · ~/web", requests: 1, rateLimited: 0, errors: 1, tokens: tokens(5, 500) },
    { agent: "claude · ~/api", requests: 2, rateLimited: 1, errors: 0, tokens: tokens(100, 10) },
  ]);
  expect(ledger.rows(start, "model").map((row) => row.model)).toEqual(["gpt-5", "opus", "haiku"]);
  expect(ledger.rows(start + 2 * HOUR_MS, "provider")).toEqual([{ providerId: "openai", requests: 1, rateLimited: 0, errors: 1, tokens: tokens(5, 500) }]);
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
