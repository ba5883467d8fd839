import { EventEmitter } from "node:events";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createAlertTracker } from "../../../electron/shell/alerts";
import { STOP_DEADLINE_MS, claimSingleInstance, stopBeforeQuit } from "../../../electron/shell/lifecycle";
import type { ConcurrencyStatusEntry, RouteEntry } from "../../../shared/types";
import { statusEntry } from "../../support/status-entry";

const provider = (over: Partial<ConcurrencyStatusEntry>) => statusEntry("anthropic", { limit: 4, ...over });
const route = (over: Partial<RouteEntry>): RouteEntry => ({
  targetId: "anthropic",
  runtimeId: "http",
  modelId: "claude",
  state: "closed",
  remainingMs: 0,
  reason: "",
  consecutiveFailures: 0,
  ...over,
});
const settings = { threshold: 1, cooldownMs: 15_000 };

describe("notifications", () => {
  test("an automatic reduction raises one alert carrying the notice; the starting state raises none", () => {
    const tracker = createAlertTracker();
    const notice = "Limit for anthropic lowered from 4 to 3 after a rate limit (429). Restore it when the provider allows more.";
    expect(tracker.observe({ topic: "status", snapshot: { providers: [provider({ limit: 5, autoReduced: true, notice: "old" })] } })).toEqual([]);
    expect(tracker.observe({ topic: "status", snapshot: { providers: [provider({ limit: 4 })] } })).toEqual([]); // by hand
    const alerts = tracker.observe({
      topic: "status",
      snapshot: { providers: [provider({ limit: 3, autoReduced: true, autoReducedFrom: 4, notice })] },
    });
    expect(alerts).toEqual([{ title: "anthropic: limit lowered to 3", body: notice }]);
    expect(tracker.observe({ topic: "status", snapshot: { providers: [provider({ limit: 3, autoReduced: true, notice, active: 2 })] } })).toEqual([]);
  });

  test("a route opening from closed raises an alert; re-opening after a failed probe does not", () => {
    const tracker = createAlertTracker();
    expect(tracker.observe({ topic: "routes", snapshot: { routes: [], settings } })).toEqual([]);
    const opened = tracker.observe({
      topic: "routes",
      snapshot: { routes: [route({ state: "open", remainingMs: 14_200, reason: "upstream 529" })], settings },
    });
    expect(opened).toEqual([
      {
        title: "Route opened: anthropic / http / claude",
        body: "upstream 529. New runs are refused for 15 s, then one probe is let through.",
      },
    ]);
    tracker.observe({ topic: "routes", snapshot: { routes: [route({ state: "half-open", reason: "upstream 529" })], settings } });
    expect(
      tracker.observe({ topic: "routes", snapshot: { routes: [route({ state: "open", remainingMs: 15_000 })], settings } }),
    ).toEqual([]);
    expect(tracker.observe({ topic: "history", snapshot: { events: [] } })).toEqual([]);
  });
});

/** Just enough of Electron's app: before-quit can be prevented, quit() counts real quits. */
function fakeApp() {
  const emitter = new EventEmitter();
  let quits = 0;
  const app = {
    on: (name: string, listener: (...args: never[]) => void) => {
      emitter.on(name, listener as (...args: unknown[]) => void);
      return app;
    },
    quit: () => {
      let prevented = false;
      emitter.emit("before-quit", { preventDefault: () => (prevented = true) });
      if (!prevented) quits += 1;
    },
    requestSingleInstanceLock: () => true,
    emitter,
  };
  return { app, quits: () => quits };
}

describe("quitting stops the host first", () => {
  afterEach(() => vi.useRealTimers());

  test("the first quit waits for stop(), a second quit meanwhile does not stop twice, then the app quits", async () => {
    const { app, quits } = fakeApp();
    let finish!: () => void;
    const stop = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    stopBeforeQuit(app as never, stop, () => {});
    app.quit();
    app.quit();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(quits()).toBe(0);
    finish();
    await vi.waitFor(() => expect(quits()).toBe(1));
  });

  test("a stop that fails is logged and the app still quits", async () => {
    const { app, quits } = fakeApp();
    const logged: string[] = [];
    stopBeforeQuit(app as never, () => Promise.reject(new Error("disk full")), (m) => logged.push(m));
    app.quit();
    await vi.waitFor(() => expect(quits()).toBe(1));
    expect(logged).toEqual(["Stopping the host failed"]);
  });

  test("a stop that hangs does not keep the app from quitting", async () => {
    vi.useFakeTimers();
    const { app, quits } = fakeApp();
    stopBeforeQuit(app as never, () => new Promise<void>(() => {}), () => {});
    app.quit();
    await vi.advanceTimersByTimeAsync(STOP_DEADLINE_MS - 1);
    expect(quits()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(quits()).toBe(1);
  });

  test("a second launch is handed to the first instance", () => {
    const { app } = fakeApp();
    const focus = vi.fn();
    expect(claimSingleInstance(app as never, focus)).toBe(true);
    app.emitter.emit("second-instance");
    expect(focus).toHaveBeenCalledTimes(1);
    expect(claimSingleInstance({ ...app, requestSingleInstanceLock: () => false } as never, focus)).toBe(false);
  });
});

describe("plan-window notifications", () => {
  const added = (...events: { kind: "window_exhausted" | "window_reset" | "paused"; message: string }[]) => ({
    topic: "history-added" as const,
    snapshot: { events: events.map((e, i) => ({ at: i, providerId: "anthropic", ...e })) },
  });

  test("a used-up window and its reset notify, at most once a minute per provider", () => {
    let now = 0;
    const tracker = createAlertTracker(() => now);
    expect(tracker.observe(added({ kind: "window_exhausted", message: "anthropic's 5-hour window is used up" }))).toEqual([
      { title: "anthropic: plan window used up", body: "anthropic's 5-hour window is used up" },
    ]);
    now = 30_000;
    expect(tracker.observe(added({ kind: "window_reset", message: "reset" }))).toEqual([]);
    now = 61_000;
    expect(tracker.observe(added({ kind: "window_reset", message: "anthropic's 5-hour window reset; agents are admitted again" }))).toEqual([
      { title: "anthropic: plan window reset", body: "anthropic's 5-hour window reset; agents are admitted again" },
    ]);
    expect(tracker.observe(added({ kind: "paused", message: "paused" }))).toEqual([]);
  });

  test("a restore that did not stick is not notified again", () => {
    const tracker = createAlertTracker(() => 0);
    tracker.observe({ topic: "status", snapshot: { providers: [provider({ limit: 4 })] } });
    const notice = "anthropic lowered the limit again 3 s after the restore: the provider allows 3 right now";
    expect(
      tracker.observe({ topic: "status", snapshot: { providers: [provider({ limit: 3, autoReduced: true, autoReducedFrom: 4, notice })] } }),
    ).toEqual([]);
  });
});
