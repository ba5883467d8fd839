import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

afterEach(cleanup);

function windowWith(limit = 2) {
  const view = renderWindow();
  view.bridge.answer("limit:set", ({ providerId, limit }) => ({ ok: true, value: { providerId, limit } }));
  view.bridge.answer("cooldown:set", ({ providerId, cooldownMs }) => ({ ok: true, value: { providerId, cooldownMs } }));
  view.push("status", { providers: [entry("anthropic", { limit, autoReduced: true, autoReducedFrom: 3, notice: "lowered" })] });
  return view;
}

test("a blur that changed nothing sends nothing (it would clear the auto-reduction)", async () => {
  const { bridge } = windowWith();
  const limit = screen.getByRole("spinbutton", { name: "Limit for anthropic" });
  await act(async () => {
    fireEvent.focus(limit);
    fireEvent.blur(limit);
    // Edited, then put back: the field ends where it started.
    fireEvent.change(limit, { target: { value: "4" } });
    fireEvent.change(limit, { target: { value: "2" } });
    fireEvent.blur(limit);
    // Written differently, the same number: still no change.
    fireEvent.change(limit, { target: { value: "2.0" } });
    fireEvent.blur(limit);
  });
  expect(bridge.callsTo("limit:set")).toEqual([]);
});

test("a changed blur saves once, and Enter followed by a blur does not save twice", async () => {
  const { bridge } = windowWith();
  const limit = screen.getByRole("spinbutton", { name: "Limit for anthropic" });
  await act(async () => {
    fireEvent.change(limit, { target: { value: "4" } });
    fireEvent.blur(limit);
  });
  await act(async () => {
    fireEvent.change(limit, { target: { value: "5" } });
    fireEvent.keyDown(limit, { key: "Enter" });
    fireEvent.blur(limit);
  });
  expect(bridge.callsTo("limit:set")).toEqual([
    { providerId: "anthropic", limit: 4 },
    { providerId: "anthropic", limit: 5 },
  ]);
});

test("a slider drag shows each value and saves once on release; its scale is 10 ms a step below 1 s, 50 ms above", async () => {
  const { bridge } = windowWith();
  const slider = screen.getByRole("slider", { name: "Cooldown for anthropic" });
  const field = screen.getByRole("spinbutton", { name: "Cooldown ms for anthropic" }) as HTMLInputElement;
  for (const [position, ms] of [["40", "400"], ["70", "700"], ["100", "1000"], ["104", "1200"]] as const) {
    fireEvent.input(slider, { target: { value: position } });
    expect(field.value).toBe(ms);
  }
  expect(slider.getAttribute("max")).toBe("180");
  expect(slider.getAttribute("aria-valuetext")).toBe("1.2 s");
  expect(bridge.callsTo("cooldown:set")).toEqual([]);
  await act(async () => {
    fireEvent.pointerUp(slider);
    fireEvent.change(slider); // the browser's own end-of-gesture event follows the release
  });
  expect(bridge.callsTo("cooldown:set")).toEqual([{ providerId: "anthropic", cooldownMs: 1200 }]);
  expect(field.value).toBe("1200");
});
