// SPEC §4: durations read as people say them, and the same in every place a person reads one.
import { expect, test } from "vitest";
import { formatStatus } from "../../cli/status-text";
import { routeOpenedMessage } from "../../electron/engine/breaker-messages";
import { pausedMessage } from "../../electron/engine/pool-messages";
import { formatDuration } from "../../shared/duration";
import { statusEntry } from "../support/status-entry";

test("a 150 s pause reads 2 min 30 s in the history and in headroom status, as in the window", () => {
  expect(formatDuration(150_000)).toBe("2 min 30 s");
  expect(pausedMessage("anthropic", 150_000)).toContain("paused for 2 min 30 s after");
  const status = formatStatus({ providers: [statusEntry("anthropic", { paused: true, pausedUntil: 150_000 })] }, 0);
  expect(status).toMatch(/\banthropic\b.*\b2 min 30 s left\b/);
});

test("a route's history names its cooldown the same way", () => {
  const route = { targetId: "anthropic", runtimeId: "http", modelId: "m" };
  expect(routeOpenedMessage(route, 90_000, 3, "upstream 529")).toBe(
    "Route anthropic / http / m opened for 1 min 30 s after 3 consecutive failures: upstream 529.",
  );
});
