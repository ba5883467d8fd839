// SPEC §1: when the data folder cannot be written nothing is acknowledged that is not saved:
// admissions and settings changes answer 503 naming the folder and the OS error; releases
// still free their slot. Held leases live in leases.json and settings in settings.json, so each
// file is made unwritable alone and both together. Tests run as root, where chmod stops nothing:
// a file is replaced by a directory instead, which makes every atomic write (temp file + rename) fail.
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

async function hostHolding(): Promise<string> {
  t = await startTestHost();
  await t.client.setLimit("anthropic", 2);
  await t.client.setCooldown("anthropic", 0);
  return (await t.client.acquire({ providerId: "anthropic", agentId: "before" })).leaseId;
}

/** Replaces the data folder's `name` by a directory; returns how to put it back. */
function unwritable(name: string): () => void {
  const file = join(t.dataDir, name);
  rmSync(file, { force: true });
  mkdirSync(file);
  return () => rmSync(file, { recursive: true });
}

async function expectAdmissionRefusedAndReleaseFreed(held: string): Promise<void> {
  const admission = await refusal(t.client.acquire({ providerId: "anthropic", agentId: "after" }));
  expect(admission).toMatchObject({ status: 503, code: "unavailable" });
  expect(admission?.message).toContain(t.dataDir);
  expect(admission?.message).toMatch(/E[A-Z]+/); // the OS error code, e.g. EISDIR

  const release = await refusal(t.client.release(held, "success"));
  expect(release).toMatchObject({ status: 503, code: "unavailable" });
  expect((await t.client.status()).providers[0]).toMatchObject({ active: 0, recycling: 0 });
}

async function expectSettingsChangeRefused(): Promise<void> {
  const limit = await refusal(t.client.setLimit("anthropic", 5));
  expect(limit).toMatchObject({ status: 503, code: "unavailable" });
  expect(limit?.message).toContain(t.dataDir);
  expect(limit?.message).toMatch(/E[A-Z]+/);
  expect((await t.client.limit("anthropic")).limit).toBe(2);
  expect((await refusal(t.client.setLimit("newcomer", 1)))?.status).toBe(503);
  expect((await t.client.limits()).limits.map((l) => l.providerId)).toEqual(["anthropic"]);
}

test("a data folder that cannot be written: changes and admissions 503, releases still free the slot", async () => {
  const held = await hostHolding();
  const restore = [unwritable("settings.json"), unwritable("leases.json")];

  await expectSettingsChangeRefused();
  await expectAdmissionRefusedAndReleaseFreed(held);
  const notices = (await t.client.status()).notices?.join(" ");
  expect(notices).toContain("settings.json");
  expect(notices).toContain("leases.json");

  // Writable again: everything works, and the notices go.
  for (const undo of restore) undo();
  await expect(t.client.setLimit("anthropic", 5)).resolves.toMatchObject({ limit: 5 });
  await expect(t.client.acquire({ providerId: "anthropic" })).resolves.toMatchObject({ providerId: "anthropic" });
  expect((await t.client.status()).notices).toBeUndefined();
});

test("only the held-leases file cannot be written: admissions 503, releases free the slot, settings still save", async () => {
  const held = await hostHolding();
  const restore = unwritable("leases.json");

  await expectAdmissionRefusedAndReleaseFreed(held);
  expect((await t.client.status()).notices).toEqual([expect.stringContaining(join(t.dataDir, "leases.json")) as string]);
  await expect(t.client.setLimit("anthropic", 3)).resolves.toMatchObject({ limit: 3 });

  restore();
  await expect(t.client.acquire({ providerId: "anthropic" })).resolves.toMatchObject({ providerId: "anthropic" });
  expect((await t.client.status()).notices).toBeUndefined();
});

test("only the settings file cannot be written: settings changes 503; admissions and releases, saved, are answered", async () => {
  const held = await hostHolding();
  const restore = unwritable("settings.json");

  await expectSettingsChangeRefused();
  expect((await t.client.status()).notices?.join(" ")).toContain("settings.json");
  await expect(t.client.release(held, "success")).resolves.toEqual({ released: true });
  await expect(t.client.acquire({ providerId: "anthropic" })).resolves.toMatchObject({ providerId: "anthropic" });

  restore();
  await expect(t.client.setLimit("anthropic", 5)).resolves.toMatchObject({ limit: 5 });
  expect((await t.client.status()).notices).toBeUndefined();
});
