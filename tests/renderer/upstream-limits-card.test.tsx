import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { entry } from "./fake-bridge";
import { renderWindow } from "./render-window";

afterEach(cleanup);

test("the card shows what the provider's own rate-limit headers say, and why it is paused", () => {
  const { push } = renderWindow();
  const now = Date.now();
  push("status", {
    providers: [
      entry("anthropic", {
        paused: true,
        pausedUntil: now + 20_000,
        pauseReason: "upstream says 0 requests left",
        upstreamLimits: { requests: { limit: 50, remaining: 0, resetAt: now + 20_000 }, tokens: { remaining: 9000 }, seenAt: now },
      }),
    ],
  });
  const card = within(screen.getByRole("region", { name: "anthropic" }));
  expect(card.getByText(/^Paused: upstream says 0 requests left · /)).toBeTruthy();
  // The whole reading, buckets without a known limit too, is in the details.
  fireEvent.click(card.getByRole("button", { name: "Details for anthropic" }));
  const details = within(screen.getByRole("region", { name: "anthropic details" }));
  expect(details.getByText(/0 of 50 requests left, resets .* · 9000 tokens left \(seen /)).toBeTruthy();
});
