import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, test } from "vitest";
import { PUSH_WINDOW_MS, startSnapshotFeed, type Delivery } from "../../electron/service/snapshot-feed";
import { HeadroomService } from "../../electron/service/headroom-service";
import { openSettings, type SettingsStore } from "../../electron/settings/settings-store";
import { createFakeClock, type FakeClock } from "../support/fake-clock";

let dir: string;
let store: SettingsStore;
let clock: FakeClock;
let service: HeadroomService;
let delivered: { at: number; delivery: Delivery }[];
let stop: () => void;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-feed-"));
  store = openSettings({ dir });
  clock = createFakeClock();
  service = new HeadroomService({ store, clock, newId: randomUUID });
  delivered = [];
  stop = startSnapshotFeed(service, clock, (delivery) => delivered.push({ at: clock.now(), delivery }));
});

afterEach(() => {
  stop();
  service.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ofTopic = (topic: Delivery["topic"]) => delivered.filter((d) => d.delivery.topic === topic);

test("a burst of changes inside one window becomes one snapshot per topic, showing the last state", () => {
  service.setLimit({ providerId: "anthropic", limit: 1 });
  for (let limit = 2; limit <= 40; limit++) service.setLimit({ providerId: "anthropic", limit: limit });
  clock.advance(PUSH_WINDOW_MS);
  const status = ofTopic("status");
  expect(status).toHaveLength(1);
  const last = status[0]!.delivery;
  expect(last.topic === "status" && last.snapshot.providers[0]?.limit).toBe(40);
  expect(ofTopic("history-added")).toHaveLength(1); // "provider added" was recorded in the same window
});

test("history goes out as deltas: only the events recorded since the last push, newest first", () => {
  for (let i = 0; i < 300; i++) service.setLimit({ providerId: `p${i}`, limit: 1 });
  clock.advance(PUSH_WINDOW_MS);
  service.removeProvider({ providerId: "p0" });
  service.removeProvider({ providerId: "p1" });
  clock.advance(PUSH_WINDOW_MS);
  const deltas = ofTopic("history-added").map(({ delivery }) => (delivery.topic === "history-added" ? delivery.snapshot.events : []));
  expect(deltas.map((events) => events.length)).toEqual([300, 2]);
  expect(deltas[1]!.map((event) => event.message)).toEqual(["Provider p1 removed.", "Provider p0 removed."]);
  expect(ofTopic("history")).toHaveLength(0);
});

test("changes spread over time are pushed at most once per window per topic", () => {
  service.setLimit({ providerId: "anthropic", limit: 1 });
  for (let ms = 0; ms < 1000; ms += 10) {
    service.setCooldown({ providerId: "anthropic", cooldownMs: ms });
    clock.advance(10);
  }
  clock.advance(PUSH_WINDOW_MS);
  const times = ofTopic("status").map((d) => d.at);
  expect(times.length).toBeGreaterThan(5);
  expect(times.length).toBeLessThanOrEqual(1000 / PUSH_WINDOW_MS + 2);
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(PUSH_WINDOW_MS);
  const last = ofTopic("status").at(-1)!.delivery;
  expect(last.topic === "status" && last.snapshot.providers[0]?.cooldownMs).toBe(990);
});

test("a quiet host pushes nothing, and nothing after stop", () => {
  clock.advance(1000);
  expect(delivered).toEqual([]);
  service.setLimit({ providerId: "anthropic", limit: 2 });
  stop();
  clock.advance(1000);
  expect(delivered).toEqual([]);
});

test("a route transition is pushed on the routes topic", () => {
  service.routeOutcome({ targetId: "a", runtimeId: "http", modelId: "m", runId: "run-1", outcome: "failure", reason: "boom" });
  clock.advance(PUSH_WINDOW_MS);
  const routes = ofTopic("routes");
  expect(routes).toHaveLength(1);
  const last = routes[0]!.delivery;
  expect(last.topic === "routes" && last.snapshot.routes[0]?.state).toBe("open");
});
