import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("connection", () => {
  test("says it is reconnecting while the host is gone and drops the message once it is back", () => {
    const { connect, push } = renderWindow();
    connect("live");
    push("status", { providers: [] });
    expect(screen.getByText("Live").getAttribute("role")).toBe("status");
    connect("reconnecting");
    expect(screen.getByText(/^Reconnecting…/).getAttribute("role")).toBe("status");
    // Stale numbers are not offered for editing.
    expect(screen.getByRole("button", { name: "Add provider" }).closest("fieldset")?.disabled).toBe(true);
    connect("live");
    expect(screen.queryByText(/^Reconnecting…/)).toBeNull();
    expect(screen.getByRole("button", { name: "Add provider" }).closest("fieldset")?.disabled).toBe(false);
  });

  test("a refused token says where the right one is, with nothing of the dashboard behind it", () => {
    const { connect, store } = renderWindow();
    connect("unauthorized");
    expect(screen.getByRole("status").textContent).toMatch(/token was refused.*does not match.*#token=/);
    expect(screen.queryByRole("button", { name: "Add provider" })).toBeNull();
    act(() => store.setState({ tokenGiven: false }));
    expect(screen.getByRole("status").textContent).toMatch(/has no token.*#token=.*api-token/);
    expect(screen.getByRole("status").textContent).not.toMatch(/`/);
  });
});

test("a settings file that was corrupt is announced in Needs you", () => {
  const { push } = renderWindow();
  const notice = "Settings file was corrupt; moved aside to settings.corrupt-1.json and defaults are used.";
  push("status", { providers: [], notices: [notice] });
  const needs = within(screen.getByRole("region", { name: "Needs you" }));
  expect(needs.getByRole("listitem", { name: `Headroom: ${notice}` })).toBeTruthy();
});

test("the empty state tells a new user what to do, once the first status arrived", () => {
  const { push } = renderWindow();
  expect(screen.queryByText(/No providers yet/)).toBeNull();
  push("status", { providers: [] });
  expect(screen.getByText(/No providers yet/)).toBeTruthy();
  for (const agent of ["Claude Code", "Codex", "aider", "OpenAI-compatible SDK"]) {
    expect(screen.getByRole("button", { name: `Copy setup line for ${agent}` })).toBeTruthy();
  }
});

test("the usage gate's error and its last reading show on the card", () => {
  const { push } = renderWindow();
  push("status", {
    providers: [
      entry("anthropic", { usageGate: { ok: false, error: "timed out after 2000 ms", checkedAt: Date.now() } }),
      entry("openai", { usageGate: { ok: true, concurrentSessions: 2, checkedAt: Date.now() } }),
    ],
  });
  expect(within(screen.getByRole("region", { name: "anthropic" })).getByText(/error: timed out after 2000 ms.*not held back/)).toBeTruthy();
  expect(within(screen.getByRole("region", { name: "openai" })).getByText(/^2 sessions upstream/)).toBeTruthy();
});

test("the pause countdown ticks locally from the absolute pausedUntil", () => {
  vi.useFakeTimers({ now: new Date("2030-01-01T12:00:00Z") });
  const { push } = renderWindow();
  push("status", { providers: [entry("anthropic", { paused: true, pausedUntil: Date.now() + 10_000 })] });
  const card = screen.getByRole("region", { name: "anthropic" });
  expect(within(card).getByText("10 s")).toBeTruthy();
  act(() => vi.advanceTimersByTime(3_000));
  expect(within(card).getByText("7 s")).toBeTruthy();
  expect(within(card).getByRole("button", { name: "Resume now" })).toBeTruthy();
});

test("an error from the host is shown next to the control that caused it", async () => {
  const { push, bridge } = renderWindow();
  bridge.answer("limit:set", () => ({ ok: false, code: "unavailable", message: "Headroom is starting or shutting down; retry in a moment." }));
  push("status", { providers: [entry("anthropic")] });
  const limit = screen.getByRole("spinbutton", { name: "Limit for anthropic" });
  fireEvent.change(limit, { target: { value: "5" } });
  await act(async () => fireEvent.keyDown(limit, { key: "Enter" }));
  const message = screen.getByText("Headroom is starting or shutting down; retry in a moment.");
  expect(message.getAttribute("role")).toBe("status");
  expect(limit.getAttribute("aria-describedby")).toBe(message.id);
});

test("the activity list takes history-added deltas on top of the first history, each event once", () => {
  const { push } = renderWindow();
  push("status", { providers: [] });
  const event = (at: number, message: string) => ({ at, kind: "provider_added" as const, providerId: "a", message });
  push("history", { events: [event(2, "second"), event(1, "first")] });
  push("history-added", { events: [event(4, "fourth"), event(3, "third")] });
  push("history-added", { events: [event(4, "fourth")] }); // already shown (the Electron getter race)
  const shown = screen.getAllByText(/^(first|second|third|fourth)$/).map((node) => node.textContent?.split(" ").at(-1));
  expect(shown).toEqual(["fourth", "third", "second", "first"]);
});

test("the proxy's readings show as meters, and a pause says why when the host does", () => {
  const { push } = renderWindow();
  const reading = {
    pauseReason: "upstream says 0 requests left",
    upstreamLimits: { requests: { limit: 50, remaining: 0, resetAt: Date.now() + 30_000 }, seenAt: Date.now() },
  };
  push("status", { providers: [{ ...entry("anthropic", { paused: true, pausedUntil: Date.now() + 30_000 }), ...reading }] });
  const card = screen.getByRole("region", { name: "anthropic" });
  expect(within(card).getByText(/^Paused: upstream says 0 requests left · /)).toBeTruthy();
  const meter = within(card).getByRole("meter", { name: "Requests left for anthropic" });
  expect([meter.getAttribute("value"), meter.getAttribute("max")]).toEqual(["0", "50"]);
  expect(within(card).getByText(/^0 left/).textContent).toMatch(/resets in 30 s/);
});
