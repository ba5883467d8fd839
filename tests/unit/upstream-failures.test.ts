// SPEC §4 `upstreamFailures`: what a provider's card shows of requests that found no working
// upstream, counted over the last 10 minutes and gone when there were none.
import { expect, test } from "vitest";
import { UPSTREAM_FAILURE_WINDOW_MS, UpstreamFailureBook } from "../../electron/engine/upstream-failures";
import { createFakeClock } from "../support/fake-clock";

function book() {
  const clock = createFakeClock(1_700_000_000_000);
  let changes = 0;
  const failures = new UpstreamFailureBook(clock, () => (changes += 1));
  return { clock, failures, changes: () => changes };
}

test("each failure counts; the last error and when it happened are the newest ones", () => {
  const { clock, failures } = book();
  expect(failures.of("gemini")).toBeUndefined();
  failures.note("gemini", "no upstream set");
  clock.advance(250);
  failures.note("gemini", "no upstream set");
  clock.advance(3_000);
  failures.note("gemini", "connection refused (127.0.0.1:1)");
  expect(failures.of("gemini")).toEqual({ count: 3, lastError: "connection refused (127.0.0.1:1)", lastAt: clock.now() });
  expect(failures.of("anthropic")).toBeUndefined();
});

test("a failure counts for 10 minutes, then ages out; the field goes when the last one does", () => {
  const { clock, failures } = book();
  const first = clock.now();
  failures.note("openai", "no upstream set");
  clock.advance(5 * 60_000);
  failures.note("openai", "loop: the upstream leads back to a Headroom proxy");
  const second = clock.now();

  clock.advance(first + UPSTREAM_FAILURE_WINDOW_MS - 1 - clock.now());
  expect(failures.of("openai")?.count).toBe(2);
  clock.advance(1);
  // The older one is gone; what the card says is still the newest error.
  expect(failures.of("openai")).toEqual({ count: 1, lastError: "loop: the upstream leads back to a Headroom proxy", lastAt: second });
  clock.advance(second + UPSTREAM_FAILURE_WINDOW_MS - clock.now());
  expect(failures.of("openai")).toBeUndefined();
});

test("ageing out is pushed on its own, without a request or a read to notice it", () => {
  const { clock, failures, changes } = book();
  failures.note("openai", "no upstream set");
  clock.advance(60_000);
  failures.note("openai", "no upstream set");
  expect(changes()).toBe(2);
  clock.advance(UPSTREAM_FAILURE_WINDOW_MS - 60_000);
  expect(changes()).toBe(3); // the first aged out
  clock.advance(60_000);
  expect(changes()).toBe(4); // the second aged out: the field is gone
  expect(failures.of("openai")).toBeUndefined();
  expect(clock.pending()).toBe(0);
});

test("an agent hammering a broken upstream is counted exactly, however many a second", () => {
  const { clock, failures } = book();
  for (let second = 0; second < 600; second++) {
    for (let i = 0; i < 50; i++) {
      failures.note("anthropic", "connection refused (127.0.0.1:1)");
      clock.advance(10);
    }
    clock.advance(500);
  }
  expect(failures.of("anthropic")?.count).toBe(30_000);
  clock.advance(UPSTREAM_FAILURE_WINDOW_MS / 2);
  expect(failures.of("anthropic")?.count).toBe(15_000);
  // One timer for the whole book, not one per failure.
  expect(clock.pending()).toBe(1);
});

test("each provider has its own count; a removed provider's goes with it", () => {
  const { failures } = book();
  failures.note("anthropic", "no upstream set");
  failures.note("openai", "host not found (api.example.invalid)");
  failures.note("openai", "host not found (api.example.invalid)");
  failures.forget("anthropic");
  expect(failures.of("anthropic")).toBeUndefined();
  expect(failures.of("openai")?.count).toBe(2);
});
