// SPEC §1: when the data folder cannot be written nothing is acknowledged that is not saved:
// admissions and settings changes answer 503 naming the folder and the OS error; releases
// still free their slot. Tests run as root, where chmod stops nothing: the settings file is
// replaced by a directory instead, which makes every atomic write (temp file + rename) fail.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ApiError);

test("a data folder that cannot be written: changes and admissions 503, releases still free the slot", async () => {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 2);
  await t.client.setCooldown("anthropic", 0);
  const held = await t.client.acquire({ providerId: "anthropic", agentId: "before" });

  const settingsFile = join(t.dataDir, "settings.json");
  rmSync(settingsFile);
  mkdirSync(settingsFile);

  const limit = await refusal(t.client.setLimit("anthropic", 5));
  expect(limit).toMatchObject({ status: 503, code: "unavailable" });
  expect(limit?.message).toContain(t.dataDir);
  expect(limit?.message).toMatch(/E[A-Z]+/); // the OS error code, e.g. EISDIR
  expect((await t.client.limit("anthropic")).limit).toBe(2);
  expect((await refusal(t.client.setLimit("newcomer", 1)))?.status).toBe(503);
  expect((await t.client.limits()).limits.map((l) => l.providerId)).toEqual(["anthropic"]);

  const admission = await refusal(t.client.acquire({ providerId: "anthropic", agentId: "after" }));
  expect(admission).toMatchObject({ status: 503, code: "unavailable" });
  expect(admission?.message).toContain(t.dataDir);

  const release = await refusal(t.client.release(held.leaseId, "success"));
  expect(release).toMatchObject({ status: 503, code: "unavailable" });
  const status = await t.client.status();
  expect(status.providers[0]).toMatchObject({ active: 0, recycling: 0 });
  expect(status.notices?.join(" ")).toContain("settings.json");

  // Writable again: everything works, and the notice goes.
  rmSync(settingsFile, { recursive: true });
  await expect(t.client.setLimit("anthropic", 5)).resolves.toMatchObject({ limit: 5 });
  await expect(t.client.acquire({ providerId: "anthropic" })).resolves.toMatchObject({ providerId: "anthropic" });
  expect((await t.client.status()).notices).toBeUndefined();
});
