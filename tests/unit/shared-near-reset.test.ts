// SPEC §8 "Waiting through a near reset" on a shared provider (electron/shared-pool/near-reset-waits.ts):
// the same bounds as a local provider's, judged on Redis's window as this host last read it. The
// admission stands in for Redis's queue: it waits until admitted or aborted.
import { expect, test } from "vitest";
import type { AcquireOptions, AcquireResult } from "../../electron/engine/pool-types";
import { ABORTED } from "../../electron/engine/waiter-queue";
import { SharedNearResetWaits } from "../../electron/shared-pool/near-reset-waits";
import type { RedisWindow } from "../../electron/shared-pool/shared-windows";
import { createFakeClock } from "../support/fake-clock";
import { flush } from "../support/pool-harness";

function setup() {
  const clock = createFakeClock();
  let window: RedisWindow | undefined = { label: "5-hour", until: clock.now() + 10_000, probing: false };
  const waits = new SharedNearResetWaits(clock, () => window);
  let admitNow: (() => void) | undefined;
  let asked: AcquireOptions | undefined;
  const queue = (options: AcquireOptions): Promise<AcquireResult> =>
    new Promise((resolve) => {
      asked = options;
      options.signal?.addEventListener("abort", () => resolve(ABORTED), { once: true });
      admitNow = () => resolve({ ok: true, lease: { leaseId: "L1", providerId: "anthropic", admittedAt: clock.now(), enqueuedAt: clock.now() } });
    });
  let answer: AcquireResult | undefined;
  const wait = (options: AcquireOptions) => void waits.around(options, queue).then((result) => (answer = result));
  return {
    clock,
    waits,
    wait,
    setWindow: (next: RedisWindow | undefined) => (window = next),
    admit: () => admitNow?.(),
    answer: () => answer,
    asked: () => asked,
  };
}

test("a probe refused again with a reset out of reach answers the waiter with a timeout at once", async () => {
  const s = setup();
  s.wait({ proxied: true, nearResetMs: 120_000 });
  s.clock.advance(10_000);
  s.setWindow({ label: "5-hour", until: s.clock.now() + 90_000, probing: false }); // still within reach
  s.waits.read();
  await flush();
  expect(s.answer()).toBeUndefined();
  s.setWindow({ label: "5-hour", until: s.clock.now() + 3_600_000, probing: false });
  s.waits.read();
  await flush();
  expect(s.answer()).toEqual({ ok: false, failure: { kind: "timeout" } });
});

test("60 s past the reset with the window still holding admission back, it gives up; reopened, it waits on", async () => {
  const s = setup();
  s.wait({ proxied: true, nearResetMs: 120_000 });
  s.clock.advance(10_000);
  s.setWindow({ label: "5-hour", until: s.clock.now(), probing: true }); // the probe is out, unanswered
  s.clock.advance(59_000);
  await flush();
  expect(s.answer()).toBeUndefined();
  s.clock.advance(1_000);
  await flush();
  expect(s.answer()).toEqual({ ok: false, failure: { kind: "timeout" } });

  const reopened = setup();
  reopened.wait({ proxied: true, nearResetMs: 120_000 });
  reopened.clock.advance(10_000);
  reopened.setWindow(undefined); // the probe answered: the window is open, it waits for a slot like anyone
  reopened.clock.advance(60_000);
  await flush();
  expect(reopened.answer()).toBeUndefined();
  reopened.admit();
  await flush();
  expect(reopened.answer()).toMatchObject({ ok: true, lease: { leaseId: "L1" } });
});

test("a request that is not waiting through a reset is passed on as it came", async () => {
  const s = setup();
  const own = new AbortController();
  const options = { proxied: true, signal: own.signal };
  s.wait(options); // no nearResetMs: an API lease or a ride
  expect(s.asked()).toBe(options);
  s.setWindow({ label: "5-hour", until: s.clock.now() + 3_600_000, probing: false });
  s.waits.read();
  s.clock.advance(120_000);
  await flush();
  expect(s.answer()).toBeUndefined();
  own.abort(); // its own signal still works when it is wrapped, too
  await flush();
  expect(s.answer()).toEqual({ ok: false, failure: { kind: "aborted" } });
});

test("a waiter whose client leaves is answered as gone, not as a timeout", async () => {
  const s = setup();
  const own = new AbortController();
  s.wait({ proxied: true, nearResetMs: 120_000, signal: own.signal });
  expect(s.asked()?.signal).not.toBe(own.signal); // wrapped: the bounds can end it too
  own.abort();
  await flush();
  expect(s.answer()).toEqual({ ok: false, failure: { kind: "aborted" } });
  // Gone, it is no longer tested: a later far reset changes nothing.
  s.setWindow({ label: "5-hour", until: s.clock.now() + 3_600_000, probing: false });
  s.waits.read();
  s.clock.advance(120_000);
  await flush();
  expect(s.answer()).toEqual({ ok: false, failure: { kind: "aborted" } });
});
