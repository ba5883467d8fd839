// The read and write commands against a real host: what they change there and what they print.
import { afterEach, beforeEach, expect, test } from "vitest";
import type { ConcurrencyStatusResponse, RoutesView } from "../../shared/types";
import { cliEnv, runCli } from "../support/cli-harness";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
let env: Record<string, string>;
beforeEach(async () => {
  t = await startTestHost();
  env = cliEnv(t);
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const ok = async (...args: string[]) => {
  const result = await runCli(args, env);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
  return result.stdout;
};

test("providers add, list, upstream and remove change the host and print what they did", async () => {
  expect(await ok("providers", "add", "anthropic", "4")).toBe("Added anthropic with limit 4.\n");
  await ok("providers", "upstream", "anthropic", "https://api.anthropic.com/");
  expect(await t.client.provider("anthropic")).toMatchObject({ limit: 4, upstream: "https://api.anthropic.com" });

  const listed = JSON.parse(await ok("providers", "--json")) as { providers: unknown[] };
  expect(listed.providers).toEqual([{ providerId: "anthropic", limit: 4, cooldownMs: 350, responseTimeoutMs: 300_000, waitForResetMs: 120_000, overage: "allow", upstream: "https://api.anthropic.com" }]);
  expect(await ok("providers")).toMatch(/^PROVIDER\s+LIMIT\s+COOLDOWN\s+UPSTREAM.*\nanthropic\s+4\s+350 ms\s+https:\/\/api\.anthropic\.com/);

  await ok("providers", "upstream", "anthropic", "none");
  expect((await t.client.provider("anthropic")).upstream).toBeUndefined();
  expect(await ok("providers", "remove", "anthropic")).toBe("Removed anthropic.\n");
  expect((await t.client.status()).providers).toEqual([]);
});

test("share without Redis says to start the host with HEADROOM_REDIS_URL, exits 64 and changes nothing; unshare keeps it local", async () => {
  await t.client.setLimit("anthropic", 4);
  const refused = await runCli(["providers", "share", "anthropic"], env);
  expect(refused.code).toBe(64);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toMatch(/^headroom: shared .*HEADROOM_REDIS_URL[^\n]*\n$/);
  expect((await t.client.provider("anthropic")).shared).toBeFalsy();
  expect((await t.client.status()).providers[0]!.shared).toBeUndefined();

  expect(await ok("providers", "unshare", "anthropic")).toBe("anthropic is local to this host now.\n");
  expect(await ok("providers")).toMatch(/\nanthropic\s+4\s+350 ms\s+-\s+-\s+-\n/);
  const typo = await runCli(["providers", "share", "antropic"], env);
  expect(typo.code).toBe(64);
  expect(typo.stderr).toContain("known providers: anthropic");
});

test("limit and cooldown set and show values; limit never creates a provider by typo", async () => {
  await t.client.setLimit("anthropic", 2);
  expect(JSON.parse(await ok("limit", "anthropic", "5", "--json"))).toEqual({ providerId: "anthropic", limit: 5 });
  expect(await ok("limit", "anthropic")).toBe("anthropic: limit 5\n");
  expect(JSON.parse(await ok("cooldown", "anthropic", "1200", "--json"))).toEqual({ providerId: "anthropic", cooldownMs: 1200 });
  expect(await t.client.cooldown("anthropic")).toEqual({ providerId: "anthropic", cooldownMs: 1200 });

  const typo = await runCli(["limit", "antropic", "3"], env);
  expect(typo.code).toBe(64);
  expect(typo.stderr).toContain("known providers: anthropic");
  expect((await t.client.limits()).limits).toEqual([{ providerId: "anthropic", limit: 5 }]);
});

test("status shows the table with pause countdown and auto-reduction, and --json the API's answer", async () => {
  await t.client.setLimit("anthropic", 3);
  await t.client.setLimit("openai", 2);
  const lease = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(lease.leaseId, "rate_limited", 30_000);
  await t.client.acquire({ providerId: "openai" });

  const table = await ok("status");
  expect(table).toMatch(/^PROVIDER\s+ACTIVE\s+QUEUED\s+RECYCLING\s+PAUSED\s+COOLDOWN/);
  expect(table).toMatch(/\nanthropic\s+0\/2\s+0\s+\d\s+\d{1,2} s left\s+350 ms\s+[\d.]+ m?s\/[\d.]+ m?s\s+auto-reduced from 3\n/);
  expect(table).toMatch(/\nopenai\s+1\/2\s+0\s+0\s+-\s+350 ms/);
  expect(table).toContain("! Limit for anthropic lowered from 3 to 2");

  const json = JSON.parse(await ok("status", "--json")) as ConcurrencyStatusResponse;
  const live = await t.client.status();
  expect(json.providers.map((p) => [p.providerId, p.limit, p.active, p.paused])).toEqual(
    live.providers.map((p) => [p.providerId, p.limit, p.active, p.paused]),
  );
});

test("resume lifts a pause", async () => {
  await t.client.setLimit("anthropic", 1);
  const lease = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(lease.leaseId, "rate_limited", 60_000);
  expect((await t.client.status()).providers[0]!.paused).toBe(true);
  const entry = JSON.parse(await ok("resume", "anthropic", "--json")) as { paused: boolean };
  expect(entry.paused).toBe(false);
  expect((await t.client.status()).providers[0]!.paused).toBe(false);
});

test("routes lists the breakers and reset closes an open route", async () => {
  const route = { targetId: "anthropic", runtimeId: "http", modelId: "claude-sonnet" };
  await t.client.routeOutcome(route, "run-1", "failure", "upstream 529");

  const view = JSON.parse(await ok("routes", "--json")) as RoutesView;
  expect(view.routes).toMatchObject([{ ...route, state: "open", consecutiveFailures: 1 }]);
  expect(await ok("routes")).toMatch(/\nanthropic\s+http\s+claude-sonnet\s+open\s+1\d? s\s+1\s+upstream 529\n/);

  expect(await ok("routes", "reset", "anthropic", "http", "claude-sonnet")).toBe("Route anthropic / http / claude-sonnet is closed.\n");
  expect((await t.client.routes()).routes).toMatchObject([{ ...route, state: "closed" }]);
});

test("providers hold sets and clears the hold; limit --keep accepts an automatic reduction", async () => {
  await t.client.setLimit("anthropic", 2);
  expect(await ok("providers", "hold", "anthropic", "90")).toBe(
    "anthropic holds new agents back while a plan window is at 90 % or more.\n",
  );
  expect((await t.client.provider("anthropic")).holdNewAtPercent).toBe(90);
  const bad = await runCli(["providers", "hold", "anthropic", "101"], env);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain("holdNewAtPercent");
  expect(await ok("providers", "hold", "anthropic", "off")).toBe("anthropic holds no new agents back now.\n");
  expect((await t.client.provider("anthropic")).holdNewAtPercent).toBeUndefined();

  const lease = await t.client.acquire({ providerId: "anthropic" });
  await t.client.release(lease.leaseId, "rate_limited", 10);
  expect((await t.client.status()).providers[0]).toMatchObject({ limit: 1, autoReduced: true });
  expect(await ok("limit", "anthropic", "--keep")).toBe("Limit for anthropic kept at 1; the reduction notice is cleared.\n");
  const entry = (await t.client.status()).providers[0]!;
  expect(entry).toMatchObject({ limit: 1, autoReduced: false, noticeDismissed: false });
  expect(entry.notice).toBeUndefined();
});
