// The window's side of SPEC §7: the share switch, the hosts badge, why agents wait, Redis's
// state in the top bar, and which host holds or waits.
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import type { ConcurrencyStatusResponse, ProviderConfigView } from "../../shared/types";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

afterEach(cleanup);

const NO_REDIS = /^Start Headroom with HEADROOM_REDIS_URL to share providers across machines/;
const UNREACHABLE = "Redis is unreachable: admissions to shared provider anthropic wait until it is back, and releases are kept until then.";

function liveWindow(status: ConcurrencyStatusResponse) {
  const view = renderWindow();
  view.connect("live");
  view.push("status", status);
  return view;
}

const card = (id: string) => within(screen.getByRole("region", { name: id }));
/** The switch lives in the provider's details (one click from the card). */
function details(id: string) {
  if (!screen.queryByRole("region", { name: `${id} details` })) fireEvent.click(card(id).getByRole("button", { name: `Details for ${id}` }));
  return within(screen.getByRole("region", { name: `${id} details` }));
}
const shareSwitch = (id: string) => details(id).getByRole("switch", { name: `Share ${id} across machines` });
const config = (providerId: string, shared: boolean): ProviderConfigView => ({ providerId, limit: 3, cooldownMs: 350, responseTimeoutMs: 300_000, waitForResetMs: 120_000, overage: "allow" as const, shared });

test("without Redis the switch stays in place, off, says what would make it work, and sends nothing", async () => {
  const { bridge } = liveWindow({ providers: [entry("anthropic")] });
  const toggle = details("anthropic").getByRole("switch", { name: "Share anthropic across machines", description: NO_REDIS });
  expect(toggle.getAttribute("aria-checked")).toBe("false");
  expect(toggle.getAttribute("aria-disabled")).toBe("true");
  await act(async () => {
    fireEvent.click(toggle);
    fireEvent.keyDown(toggle, { key: " " });
  });
  expect(bridge.callsTo("provider:configure")).toEqual([]);
  expect(screen.queryByText(/^Redis /)).toBeNull();
  expect(card("anthropic").queryByText(/^Shared/)).toBeNull();
});

test("with Redis, switching shares the provider; a refusal shows its message and leaves the switch off", async () => {
  const { bridge, push } = liveWindow({ providers: [entry("anthropic"), entry("openai")], redis: { connected: true } });
  expect(screen.getByText("Redis connected")).toBeTruthy();
  const toggle = shareSwitch("anthropic");
  expect(toggle.getAttribute("aria-disabled")).toBeNull();
  expect(toggle.getAttribute("aria-describedby")).toBeNull();

  bridge.answer("provider:configure", () => ({ ok: false, code: "unavailable", message: "Redis is unreachable: try again when it answers." }));
  await act(async () => fireEvent.click(toggle));
  expect(details("anthropic").getByText("Redis is unreachable: try again when it answers.").getAttribute("role")).toBe("status");
  expect(shareSwitch("anthropic").getAttribute("aria-checked")).toBe("false");

  bridge.answer("provider:configure", ({ providerId, shared }) => ({ ok: true, value: config(providerId, shared === true) }));
  const again = shareSwitch("anthropic"); // found first: the details open outside the act below
  await act(async () => fireEvent.click(again));
  expect(bridge.callsTo("provider:configure")).toEqual([
    { providerId: "anthropic", shared: true },
    { providerId: "anthropic", shared: true },
  ]);
  expect(shareSwitch("anthropic").getAttribute("aria-checked")).toBe("true");
  expect(card("anthropic").queryByText("Redis is unreachable: try again when it answers.")).toBeNull();
  expect(shareSwitch("openai").getAttribute("aria-checked")).toBe("false");
  // The answer's own write kept the top bar's Redis state.
  expect(screen.getByText("Redis connected")).toBeTruthy();

  push("status", { providers: [entry("anthropic", { shared: true, hosts: 2 }), entry("openai")], redis: { connected: true } });
  expect(card("anthropic").getByText("Shared · 2 hosts")).toBeTruthy();
  const back = shareSwitch("anthropic");
  await act(async () => fireEvent.click(back));
  expect(bridge.callsTo("provider:configure").at(-1)).toEqual({ providerId: "anthropic", shared: false });
  expect(shareSwitch("anthropic").getAttribute("aria-checked")).toBe("false");
  expect(card("anthropic").queryByText(/^Shared/)).toBeNull();
});

test("a shared card counts its hosts and shows prominently why its agents wait", () => {
  const { push } = liveWindow({
    providers: [entry("anthropic", { shared: true, hosts: 3, queued: 2, waitReason: UNREACHABLE }), entry("ci", { shared: true, hosts: 1 })],
    redis: { connected: false, error: "connect ECONNREFUSED 127.0.0.1:6390" },
  });
  expect(card("anthropic").getByText("Shared · 3 hosts")).toBeTruthy();
  expect(card("ci").getByText("Shared · 1 host")).toBeTruthy();
  const reason = card("anthropic").getByText(/^Agents wait:/).closest("[role=status]");
  expect(reason?.textContent).toBe(`Agents wait: ${UNREACHABLE}`);
  expect(card("anthropic").getByText("held back")).toBeTruthy();
  expect(card("ci").getByText("admitting")).toBeTruthy();
  // Switching a shared provider off needs no Redis, so it stays possible while Redis is away.
  expect(shareSwitch("anthropic").getAttribute("aria-checked")).toBe("true");
  expect(shareSwitch("anthropic").getAttribute("aria-disabled")).toBeNull();

  const redis = screen.getByText("Redis unreachable");
  expect(redis.closest("[role=status]")).not.toBeNull();
  expect(redis.getAttribute("tabindex")).toBe("0");
  expect(document.getElementById(redis.getAttribute("aria-describedby")!)!.textContent).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:6390/);

  push("status", { providers: [entry("anthropic", { shared: true, hosts: 3 }), entry("ci", { shared: true, hosts: 1 })], redis: { connected: true } });
  expect(card("anthropic").queryByText(/Agents wait/)).toBeNull();
  expect(screen.getByText("Redis connected")).toBeTruthy();
  expect(screen.queryByText("Redis unreachable")).toBeNull();
});

test("holders and waiters of a shared provider name their host", async () => {
  const view = renderWindow();
  view.bridge.answer("leases:get", () => ({
    ok: true,
    value: {
      held: [{ leaseId: "l-1", agentId: "claude-1", admittedAt: Date.now(), host: "laptop:7411" }, { leaseId: "l-2", agentId: "codex", admittedAt: Date.now() }],
      waiting: [{ waiterId: "w-1", agentId: "ci-runner", position: 1, since: Date.now(), host: "ci-3:7411" }],
    },
  }));
  view.connect("live");
  await act(async () => view.push("status", { providers: [entry("anthropic", { shared: true, hosts: 2, active: 2, queued: 1 })], redis: { connected: true } }));
  // In the details, where every holder and waiter has room for its host.
  const holding = within(details("anthropic").getByRole("list", { name: "Holding anthropic" }));
  const [claude, codex] = holding.getAllByRole("listitem");
  expect(within(claude!).getByText("on laptop:7411")).toBeTruthy();
  expect(codex!.textContent).not.toMatch(/ on /);
  const waiting = within(details("anthropic").getByRole("list", { name: "Waiting for anthropic" }));
  expect(waiting.getByRole("listitem").textContent).toMatch(/^ci-runner since \d\d:\d\d:\d\d on ci-3:7411$/);
});
