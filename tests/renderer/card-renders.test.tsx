import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, expect, test } from "vitest";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

type Counted = { __headroomRenders?: Record<string, number> };
const renders = (name: string) => (globalThis as Counted).__headroomRenders?.[name] ?? 0;

beforeEach(() => {
  (globalThis as Counted).__headroomRenders = {};
});
afterEach(cleanup);

test("a snapshot that changed one provider renders only that provider's card", () => {
  const { push } = renderWindow();
  push("status", { providers: [entry("anthropic"), entry("openai")] });
  const before = { anthropic: renders("card:anthropic"), openai: renders("card:openai") };
  expect(before.anthropic).toBeGreaterThan(0);

  // Every snapshot is all new objects; only openai's content differs.
  push("status", { providers: [entry("anthropic"), entry("openai", { limit: 5 })] });
  push("status", { providers: [entry("anthropic"), entry("openai", { limit: 5 })] });

  expect(renders("card:anthropic")).toBe(before.anthropic);
  expect(renders("card:openai")).toBe(before.openai + 1);
});

test("a provider with upstream readings is not re-rendered by a snapshot that repeats them", () => {
  const { push } = renderWindow();
  // Every snapshot is all new objects, the readings included; only openai's limit differs.
  const withReadings = () =>
    entry("anthropic", { upstreamLimits: { requests: { limit: 50, remaining: 20, resetAt: 1_000 }, seenAt: 500 } });
  push("status", { providers: [withReadings(), entry("openai")] });
  const before = renders("card:anthropic");
  expect(before).toBeGreaterThan(0);

  push("status", { providers: [withReadings(), entry("openai", { limit: 5 })] });
  push("status", { providers: [withReadings(), entry("openai", { limit: 6 })] });

  expect(renders("card:anthropic")).toBe(before);
});

test("a busy provider gets its holders fetched; an idle or unchanged one costs no request", () => {
  const { push, bridge } = renderWindow();
  bridge.answer("leases:get", () => ({ ok: true, value: { held: [], waiting: [] } }));
  push("status", { providers: [entry("anthropic", { active: 1 }), entry("openai")] });
  push("status", { providers: [entry("anthropic", { active: 1 }), entry("openai")] });
  expect(bridge.callsTo("leases:get")).toEqual([{ providerId: "anthropic" }]);
});
