// The parts of the control panel (SPEC §4) whose data a host may not send yet: plan windows
// (§8), `upstreamFailures`, `Keep N`, the agents list (§9), and the browser's notifications.
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { createHeadroomStore } from "../../renderer/store/headroom-store";
import { NOTE_EVERY_MS, watchNotifications, type Note } from "../../renderer/store/notifications";
import type { AgentEntry } from "../../shared/types";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

afterEach(cleanup);

const agent = (key: string, change: Partial<AgentEntry> = {}): AgentEntry => ({
  key,
  label: key,
  providerId: "anthropic",
  state: "running",
  since: Date.now() - 60_000,
  lastSeenAt: Date.now(),
  requests: 12,
  tokens: { input: 1_000, output: 200, cacheRead: 30_000, cacheWrite: 0 },
  costUsd: 0.0126,
  unpriced: 0,
  ...change,
});

test("no agents list from a host that sends none; the list, and picking an agent highlights its leases", async () => {
  const view = renderWindow();
  view.bridge.answer("leases:get", () => ({
    ok: true,
    value: { held: [{ leaseId: "l-1", agentId: "claude", admittedAt: Date.now() }, { leaseId: "l-2", agentId: "codex", admittedAt: Date.now() }], waiting: [] },
  }));
  await act(async () => view.push("status", { providers: [entry("anthropic", { active: 2 })] }));
  expect(screen.queryByRole("region", { name: "Agents" })).toBeNull();

  view.push("agents", { agents: [agent("claude", { label: "claude · ~/src/api" }), agent("codex", { state: "waiting", position: 2 })] });
  const agents = within(screen.getByRole("region", { name: "Agents" }));
  expect(agents.getByRole("button", { name: /^claude · ~\/src\/api/ }).textContent).toMatch(/anthropic · running since .* · 31.2K tokens/);
  expect(agents.getByRole("button", { name: /^codex/ }).textContent).toMatch(/waiting #2/);

  const holding = within(screen.getByRole("list", { name: "Holding anthropic" }));
  const [claude, codex] = holding.getAllByRole("listitem");
  expect(claude!.className).toBe("");
  fireEvent.click(agents.getByRole("button", { name: /^codex/ }));
  expect(agents.getByRole("button", { name: /^codex/ }).getAttribute("aria-pressed")).toBe("true");
  expect([claude!.className, codex!.className]).toEqual(["", "picked"]);
});

test("agent rows keep their place when the host re-sorts them by state; a new agent joins at the end", async () => {
  const view = renderWindow();
  await act(async () => view.push("status", { providers: [entry("anthropic", { active: 1 })] }));
  const names = () => within(screen.getByRole("region", { name: "Agents" })).getAllByRole("button").map((row) => row.textContent?.split("anthropic")[0]);
  view.push("agents", { agents: [agent("claude"), agent("codex", { state: "waiting", position: 1 })] });
  expect(names()).toEqual(["claude", "codex"]);
  // The host puts running agents first: codex got the slot, claude now waits.
  view.push("agents", { agents: [agent("codex"), agent("claude", { state: "waiting", position: 1 }), agent("aider", { state: "waiting", position: 2 })] });
  expect(names()).toEqual(["claude", "codex", "aider"]);
  expect(within(screen.getByRole("region", { name: "Agents" })).getByRole("button", { name: /^claude/ }).textContent).toMatch(/waiting #1/);
  // An agent the host no longer lists leaves without moving the others' order.
  view.push("agents", { agents: [agent("aider"), agent("claude")] });
  expect(names()).toEqual(["claude", "aider"]);
});

test("Keep N accepts the lower limit through notice:accept, and the item leaves Needs you", async () => {
  const view = renderWindow();
  const reduced = entry("anthropic", { limit: 3, autoReduced: true, autoReducedFrom: 4, notice: "anthropic lowered the limit again 3 s after the restore: the provider allows 3 right now" });
  view.bridge.answer("notice:accept", () => ({ ok: true, value: entry("anthropic", { limit: 3 }) }));
  view.push("status", { providers: [reduced] });
  const needs = within(screen.getByRole("region", { name: "Needs you" }));
  const item = within(needs.getByRole("listitem", { name: "anthropic: limit lowered from 4 to 3" }));
  // The restore that did not stick says so in words.
  expect(item.getByText(/lowered the limit again 3 s after the restore/)).toBeTruthy();
  expect(item.getByRole("button", { name: "Restore limit to 4" })).toBeTruthy();
  await act(async () => fireEvent.click(item.getByRole("button", { name: "Keep 3" })));
  expect(view.bridge.callsTo("notice:accept")).toEqual([{ providerId: "anthropic" }]);
  expect(needs.getByText("Nothing needs you")).toBeTruthy();
  expect(within(screen.getByRole("region", { name: "anthropic" })).queryByText(/auto-reduced/)).toBeNull();
});

test("a provider failing for want of an upstream is in Needs you; `Set upstream for <id>` opens its details at the field", async () => {
  const view = renderWindow();
  view.bridge.answer("provider:get", ({ providerId }) => ({ ok: true, value: { providerId, limit: 3, cooldownMs: 350, responseTimeoutMs: 300_000, waitForResetMs: 120_000, overage: "allow" as const } }));
  view.push("status", { providers: [entry("gemini", { upstreamFailures: { count: 3, lastError: "no upstream is set for gemini", lastAt: Date.now() } })] });
  const item = within(screen.getByRole("listitem", { name: "gemini: 3 requests failed without a working upstream" }));
  expect(item.getByText(/no upstream is set for gemini/)).toBeTruthy();
  fireEvent.click(item.getByRole("button", { name: "Set upstream for gemini" }));
  const details = within(screen.getByRole("region", { name: "gemini details" }));
  await waitFor(() => expect(document.activeElement).toBe(details.getByRole("textbox", { name: "Upstream URL for gemini" })));
});

test("plan windows show as meters with their reset time; a used-up window names itself on the card", () => {
  const view = renderWindow();
  const resetsAt = Date.now() + 2 * 3_600_000;
  view.push("status", {
    providers: [
      entry("anthropic", {
        paused: true,
        pausedUntil: resetsAt,
        windows: [
          { name: "7d", usedPercent: 41, resetsAt: resetsAt + 86_400_000, seenAt: Date.now() },
          { name: "5h", usedPercent: 100, resetsAt, status: "rejected", binding: true, seenAt: Date.now() },
        ],
      }),
    ],
  });
  const card = within(screen.getByRole("region", { name: "anthropic" }));
  const meters = card.getAllByRole("meter").map((meter) => [meter.getAttribute("aria-label"), meter.getAttribute("value")]);
  expect(meters).toEqual([
    ["5-hour window used for anthropic", "100"],
    ["7-day window used for anthropic", "41"],
  ]);
  expect(card.getByText(/^5h used up · \d{1,2}:\d\d/)).toBeTruthy();
  expect(screen.getByRole("listitem", { name: "anthropic: 5-hour window used up" }).textContent).toMatch(/resets \d{1,2}:\d\d/);
});

test("notifications: a reduction, a used-up window and its reset, an open route; at most once a minute each; a restore that did not stick is not repeated", () => {
  const store = createHeadroomStore();
  const notes: Note[] = [];
  let now = 1_000_000;
  watchNotifications(store, (note) => notes.push(note), () => true, () => now);
  const status = (providers: ReturnType<typeof entry>[]) =>
    store.setState({ loaded: true, providerIds: providers.map((p) => p.providerId), providers: Object.fromEntries(providers.map((p) => [p.providerId, p])) });
  status([entry("anthropic", { limit: 4 })]);
  status([entry("anthropic", { limit: 3, autoReduced: true, autoReducedFrom: 4, notice: "Limit lowered from 4 to 3" })]);
  status([entry("anthropic", { limit: 4 })]);
  status([entry("anthropic", { limit: 3, autoReduced: true, autoReducedFrom: 4, notice: "Limit lowered from 4 to 3" })]);
  expect(notes.map((note) => note.title)).toEqual(["anthropic: limit lowered to 3"]);

  now += NOTE_EVERY_MS;
  status([entry("anthropic", { limit: 4 })]);
  status([entry("anthropic", { limit: 3, autoReduced: true, autoReducedFrom: 4, notice: "anthropic lowered the limit again 3 s after the restore" })]);
  const spent = [{ name: "5h", usedPercent: 100, status: "rejected" as const, seenAt: now }];
  const fresh = [{ name: "5h", usedPercent: 2, seenAt: now }];
  status([entry("anthropic", { windows: spent })]);
  status([entry("anthropic", { windows: fresh })]);
  status([entry("anthropic", { windows: spent })]);
  status([entry("anthropic", { windows: fresh })]);
  const route = { targetId: "openai", runtimeId: "http", modelId: "gpt-5", remainingMs: 5_000, reason: "HTTP 529", consecutiveFailures: 1 };
  store.setState({ routeKeys: ["r"], routes: { r: { ...route, state: "closed" } } });
  store.setState({ routes: { r: { ...route, state: "open" } } });
  expect(notes.map((note) => note.title)).toEqual([
    "anthropic: limit lowered to 3",
    "anthropic: 5-hour window used up",
    "anthropic: 5-hour window reset",
    "Route opened: openai/http/gpt-5",
  ]);
});

test("an agent on two providers has a row for each, and each row goes when its provider's does", async () => {
  const view = renderWindow();
  await act(async () => view.push("status", { providers: [entry("anthropic", { active: 1 }), entry("openai", { active: 1 })] }));
  const rows = () => within(screen.getByRole("region", { name: "Agents" })).getAllByRole("button").map((row) => row.textContent);
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args[0]);
  try {
    view.push("agents", { agents: [agent("claude"), agent("claude", { providerId: "openai", state: "waiting", position: 1 })] });
    expect(rows()).toEqual([expect.stringMatching(/anthropic · running/), expect.stringMatching(/openai · waiting #1/)]);
    view.push("agents", { agents: [agent("claude", { providerId: "openai" })] });
    expect(rows()).toEqual([expect.stringMatching(/openai · running/)]);
  } finally {
    console.error = original;
  }
  // Two rows under one React key are a bug React only reports here.
  expect(errors).toEqual([]);
});
