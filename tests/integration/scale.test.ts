// SPEC §3 "Scale": at most 1,000 providers; a settings change costs the changed provider; one
// status snapshot per change, the same bytes for every /events reader. Work is counted, not timed.
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, test } from "vitest";
import { CURRENT_SCHEMA_VERSION } from "../../shared/schemas";
import { LIMITS } from "../../shared/limits";
import { openEventStream } from "../../electron/http/event-stream";
import { HeadroomService } from "../../electron/service/headroom-service";
import { PUSH_WINDOW_MS } from "../../electron/service/snapshot-feed";
import { openSettings, type SettingsStore } from "../../electron/settings/settings-store";
import { createFakeClock, type FakeClock } from "../support/fake-clock";
import { removeDir, startTestHost } from "../support/test-host";

/** SPEC §3 names the figure; the test keeps its own copy so it cannot drift with LIMITS. */
const MAX_PROVIDERS = 1_000;
const idOf = (i: number) => `p${String(i).padStart(4, "0")}`;

/** A data folder whose settings already hold `count` providers (creating them one by one is slow by design: each PUT writes the file). */
function folderWith(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-scale-"));
  const providers = Object.fromEntries(Array.from({ length: count }, (_, i) => [idOf(i), { limit: 4 }]));
  fs.writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION, providers }));
  return dir;
}

let dir: string;
let store: SettingsStore;
let clock: FakeClock;
let service: HeadroomService;
let statusBuilt: number;

beforeEach(() => {
  dir = folderWith(MAX_PROVIDERS);
  store = openSettings({ dir });
  clock = createFakeClock();
  service = new HeadroomService({ store, clock, newId: randomUUID });
  const status = service.status.bind(service);
  statusBuilt = 0;
  service.status = () => {
    statusBuilt += 1;
    return status();
  };
});

afterEach(() => {
  service.close();
  store.close();
  removeDir(dir);
});

test("a host keeps at most 1,000 providers: creating one more is 409 too_many_providers", async () => {
  const t = await startTestHost({ dataDir: folderWith(MAX_PROVIDERS) });
  try {
    const res = await fetch(`${t.url}/concurrency/limits/one-more`, {
      method: "PUT",
      headers: { authorization: `Bearer ${t.host.token}`, "content-type": "application/json" },
      body: JSON.stringify({ limit: 1 }),
    });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("too_many_providers");
    expect(body.error.message).toContain("1000 providers");
    expect((await t.client.status()).providers).toHaveLength(MAX_PROVIDERS);
    await t.client.setLimit(idOf(0), 9); // an existing one still changes
  } finally {
    await t.stop();
    removeDir(t.dataDir);
  }
});

test("a settings change at 1,000 providers rebuilds only the changed provider's record and no status", () => {
  const before = store.read().providers;
  service.setCooldown({ providerId: idOf(500), cooldownMs: 1234 });
  service.setProviderConfig({ providerId: idOf(500), upstream: "http://127.0.0.1:9/v1" });
  const after = store.read().providers;
  const rebuilt = Object.keys(after).filter((id) => after[id] !== before[id]);
  expect(rebuilt).toEqual([idOf(500)]);
  expect(after[idOf(500)]).toMatchObject({ cooldownMs: 1234, upstream: "http://127.0.0.1:9/v1" });
  expect(statusBuilt).toBe(0);
  const onDisk = JSON.parse(fs.readFileSync(path.join(dir, "settings.json"), "utf8"));
  expect(Object.keys(onDisk.providers)).toHaveLength(MAX_PROVIDERS);
  expect(onDisk.providers[idOf(500)].cooldownMs).toBe(1234);
});

async function readStatusFrames(url: string, abort: AbortController, seen: (cooldown: number) => void): Promise<void> {
  const res = await fetch(`${url}/events`, { signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!block.startsWith("event: status\n")) continue;
      const status = JSON.parse(block.slice(block.indexOf("data: ") + 6));
      seen(status.providers[0].cooldownMs);
    }
  }
}

test("four /events readers at 1,000 providers share one status snapshot per change", async () => {
  const server: Server = createServer((req, res) => openEventStream(service, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const abort = new AbortController();
  const latest = [0, 0, 0, 0].map(() => -1);
  const reading = latest.map((_, i) => readStatusFrames(url, abort, (cooldown) => (latest[i] = cooldown)));
  try {
    await expect.poll(() => latest.every((c) => c === LIMITS.cooldownMs.default)).toBe(true);
    for (const cooldownMs of [100, 200, 300]) {
      statusBuilt = 0;
      service.setCooldown({ providerId: idOf(0), cooldownMs });
      clock.advance(PUSH_WINDOW_MS);
      await expect.poll(() => latest.every((c) => c === cooldownMs)).toBe(true);
      expect(statusBuilt).toBe(1);
    }
  } finally {
    abort.abort();
    await Promise.all(reading);
    await new Promise((resolve) => server.close(resolve));
  }
});
