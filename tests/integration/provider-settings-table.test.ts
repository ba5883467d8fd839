// The plain provider settings of SPEC §8 and §9 (`waitForResetMs`, `overage`, `dailyBudgetUsd`),
// each one entry of shared/provider-settings.ts SETTINGS: stored, validated, shown with its
// default, settable over the API and with `headroom providers <verb> <id> <value>`, and kept
// across a restart. What they do comes with their rules; here they are settings a person can
// set and read back.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { cliEnv, runCli } from "../support/cli-harness";
import { rawRequest, removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 2);
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const put = (body: unknown) =>
  rawRequest(t.url, {
    method: "PUT",
    path: "/concurrency/providers/anthropic",
    headers: { authorization: `Bearer ${t.host.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const fileRecord = () => JSON.parse(readFileSync(join(t.dataDir, "settings.json"), "utf8")).providers.anthropic;

test("a provider shows waitForResetMs and overage with their defaults, and no budget; none is written to the file", async () => {
  const view = await t.client.provider("anthropic");
  expect(view).toMatchObject({ waitForResetMs: 120_000, overage: "allow" });
  expect(view).not.toHaveProperty("dailyBudgetUsd");
  expect(fileRecord()).not.toHaveProperty("waitForResetMs");
  expect(fileRecord()).not.toHaveProperty("overage");
});

test("the three are set over the API, kept across a restart, and null puts them back", async () => {
  const set = await put({ waitForResetMs: 0, overage: "stop", dailyBudgetUsd: 20 });
  expect(set.status).toBe(200);
  expect(set.json()).toMatchObject({ waitForResetMs: 0, overage: "stop", dailyBudgetUsd: 20 });
  const dataDir = t.dataDir;
  await t.stop();
  t = await startTestHost({ dataDir });
  expect(await t.client.provider("anthropic")).toMatchObject({ waitForResetMs: 0, overage: "stop", dailyBudgetUsd: 20 });

  const cleared = await put({ waitForResetMs: null, overage: null, dailyBudgetUsd: null });
  expect(cleared.json()).toMatchObject({ waitForResetMs: 120_000, overage: "allow" });
  expect(cleared.json()).not.toHaveProperty("dailyBudgetUsd");
  expect(fileRecord()).toEqual({ limit: 2, cooldownMs: 350, autoReduced: false, noticeDismissed: false });
});

test.each([
  [{ waitForResetMs: -1 }, "waitForResetMs must be an integer from 0 to 600000"],
  [{ waitForResetMs: 600_001 }, "waitForResetMs must be an integer from 0 to 600000"],
  [{ waitForResetMs: "2m" }, 'waitForResetMs must be an integer from 0 to 600000, or null (back to 2 min) (got "2m")'],
  [{ overage: "maybe" }, 'overage must be one of allow, stop, or null (back to allow) (got "maybe")'],
  [{ dailyBudgetUsd: 0 }, "dailyBudgetUsd must be a number of dollars from 0.01 to 100000"],
  [{ dailyBudgetUsd: "20" }, "dailyBudgetUsd must be a number of dollars from 0.01 to 100000"],
])("%j is a 400 naming the field and what is allowed, and changes nothing", async (body, expected) => {
  const before = await t.client.provider("anthropic");
  const res = await put(body);
  expect(res.status).toBe(400);
  expect(res.json().error.code).toBe("invalid_input");
  expect(res.json().error.message).toContain(expected);
  expect(await t.client.provider("anthropic")).toEqual(before);
});

test("headroom providers wait-for-reset, overage and budget set them; bad values are usage errors", async () => {
  const env = cliEnv(t);
  const ok = async (...args: string[]) => {
    const result = await runCli(args, env);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
    return result.stdout;
  };
  expect(await ok("providers", "wait-for-reset", "anthropic", "5m")).toBe("anthropic lets requests wait through a window reset up to 5 min away.\n");
  expect((await t.client.provider("anthropic")).waitForResetMs).toBe(300_000);
  expect(await ok("providers", "wait-for-reset", "anthropic", "off")).toBe(
    "anthropic refuses requests at a used-up window however near its reset.\n",
  );
  expect((await t.client.provider("anthropic")).waitForResetMs).toBe(0);
  expect(await ok("providers", "overage", "anthropic", "stop")).toBe("anthropic stops at the plan's limit (no paid extra usage).\n");
  expect(await ok("providers", "budget", "anthropic", "$20")).toBe("anthropic pauses once today's cost reaches $20.00.\n");
  expect(await t.client.provider("anthropic")).toMatchObject({ waitForResetMs: 0, overage: "stop", dailyBudgetUsd: 20 });
  expect(await ok("providers", "budget", "anthropic", "off")).toBe("anthropic has no daily budget now.\n");

  for (const [args, expected] of [
    [["providers", "wait-for-reset", "anthropic", "11m"], "waitForResetMs must be an integer from 0 to 600000"],
    [["providers", "overage", "anthropic", "maybe"], "overage must be one of allow, stop"],
    [["providers", "overage", "anthropic"], "<allow|stop>"],
    [["providers", "budget", "anthropic", "lots"], "dailyBudgetUsd must be a number of dollars"],
    [["providers", "frobnicate", "anthropic", "1"], "wait-for-reset, overage, budget"],
  ] as const) {
    const bad = await runCli([...args], env);
    expect({ args, code: bad.code }).toEqual({ args, code: 64 });
    expect(bad.stderr).toContain(expected);
  }
  expect(await t.client.provider("anthropic")).toMatchObject({ waitForResetMs: 0, overage: "stop" });
  expect(await t.client.provider("anthropic")).not.toHaveProperty("dailyBudgetUsd");
});
