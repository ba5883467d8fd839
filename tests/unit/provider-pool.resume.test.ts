// Resuming waiters (SPEC §1, §8 `headroom run --resume`): admitted before every other waiter, in
// the order they stopped, after the reset's probe (the first of them may be the probe), never
// held by the hold, and shown with why they wait.
import { describe, expect, test } from "vitest";
import type { WindowReading } from "../../electron/engine/window-readings";
import { admitNow, flush, poolHarness, track } from "../support/pool-harness";

const HOUR = 3_600_000;
const usedUp = (resetsAt: number, seenAt: number): WindowReading => ({
  windows: [{ name: "5h", usedPercent: 100, resetsAt, seenAt, scoped: false, binding: true }],
  usedUp: { name: "5h", resetsAt },
});
const hhmm = (at: number) => {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

describe("resuming waiters", () => {
  test("go first after the reset, in the order they stopped; the first is the probe", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const resetsAt = clock.now() + HOUR;
    pool.windows.note(usedUp(resetsAt, clock.now()));
    const plainA = track(pool.acquire({ agentId: "plain-a" }));
    const resumeA = track(pool.acquire({ agentId: "resume-a", resume: true }));
    const plainB = track(pool.acquire({ agentId: "plain-b" }));
    const resumeB = track(pool.acquire({ agentId: "resume-b", resume: true }));
    await flush();
    const { waiting } = pool.leases();
    expect(waiting.map((w) => [w.agentId, w.position, w.resuming, w.waitReason])).toEqual([
      ["resume-a", 1, true, `resumes after the 5-hour window resets at ${hhmm(resetsAt)}`],
      ["resume-b", 2, true, `resumes after the 5-hour window resets at ${hhmm(resetsAt)}`],
      ["plain-a", 3, undefined, undefined],
      ["plain-b", 4, undefined, undefined],
    ]);
    expect(pool.status().waitReason).toBe(`resumes after the 5-hour window resets at ${hhmm(resetsAt)}`);

    clock.advance(HOUR);
    await flush();
    // The first resuming waiter is the probe; nobody else goes in while it is out.
    expect(resumeA.result?.ok).toBe(true);
    expect(pool.status().waitReason).toBe("one request goes first: the 5-hour window just reset");
    const probe = resumeA.result?.ok ? resumeA.result.lease.leaseId : "";
    pool.release(probe, "success");
    clock.advance(350);
    await flush();
    expect(resumeB.result?.ok).toBe(true);
    expect(plainA.settled).toBe(false);
    pool.release(resumeB.result?.ok ? resumeB.result.lease.leaseId : "", "success");
    clock.advance(350);
    await flush();
    expect(plainA.result?.ok).toBe(true);
    expect(plainB.settled).toBe(false);
  });

  test("a resuming waiter is never held by the hold, and never goes above the limit", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.windows.setHoldNewAtPercent(90);
    pool.windows.note({ windows: [{ name: "5h", usedPercent: 95, resetsAt: clock.now() + HOUR, seenAt: clock.now(), scoped: false }] });
    const held = track(pool.acquire());
    const resuming = track(pool.acquire({ resume: true }));
    await flush();
    expect(held.settled).toBe(false);
    expect(resuming.result?.ok).toBe(true);
    const again = track(pool.acquire({ resume: true }));
    await flush();
    expect(again.settled).toBe(false); // the one slot is taken
    expect(pool.status()).toMatchObject({ active: 1, queued: 2 });
  });

  test("one that gives up leaves no trace; the next resuming waiter keeps its place", async () => {
    const { pool } = poolHarness({ limit: 1 });
    const holder = await admitNow(pool);
    const gone = new AbortController();
    const first = track(pool.acquire({ resume: true, signal: gone.signal }));
    const plain = track(pool.acquire());
    const second = track(pool.acquire({ resume: true }));
    gone.abort();
    await flush();
    expect(first.result).toEqual({ ok: false, failure: { kind: "aborted" } });
    expect(pool.leases().waiting.map((w) => w.resuming ?? false)).toEqual([true, false]);
    pool.release(holder, "success");
    await flush();
    expect(second.result?.ok).toBe(true);
    expect(plain.settled).toBe(false);
  });
});

describe("waiting through a near reset (waitForResetMs)", () => {
  test("a proxy request waits for the reset, goes after resuming waiters, and through a reset that slips by 60 s", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const resetsAt = clock.now() + 90_000;
    pool.windows.note(usedUp(resetsAt, clock.now()));
    const proxied = track(pool.acquire({ proxied: true, agentId: "claude", nearResetMs: 120_000 }));
    const resuming = track(pool.acquire({ resume: true }));
    clock.advance(90_000);
    await flush();
    // The resuming waiter went first and is the probe; the provider refuses it again: the reset slips 60 s.
    expect(resuming.result?.ok).toBe(true);
    const probe = resuming.result?.ok ? resuming.result.lease.leaseId : "";
    pool.windows.note(usedUp(clock.now() + 60_000, clock.now()));
    pool.release(probe, "abandoned");
    clock.advance(59_999);
    await flush();
    expect(proxied.settled).toBe(false); // 60 s is within waitForResetMs: it keeps waiting
    clock.advance(1);
    await flush();
    expect(proxied.result?.ok).toBe(true); // the new probe
  });

  test("a refused probe that moves the reset beyond waitForResetMs answers the waiter at once", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.windows.note(usedUp(clock.now() + 30_000, clock.now()));
    const proxied = track(pool.acquire({ proxied: true, nearResetMs: 120_000 }));
    clock.advance(30_000);
    await flush();
    expect(proxied.result?.ok).toBe(true);
    const probe = proxied.result?.ok ? proxied.result.lease.leaseId : "";
    const next = track(pool.acquire({ proxied: true, nearResetMs: 120_000 }));
    await flush();
    expect(next.settled).toBe(false); // behind the probe, which is not a pause
    pool.windows.note(usedUp(clock.now() + HOUR, clock.now()));
    await flush();
    expect(next.settled).toBe(false); // it joined during the probe, not a pause: an ordinary waiter
    pool.release(probe, "rate_limited");
    const late = track(pool.acquire({ proxied: true, nearResetMs: 120_000 }));
    pool.windows.note(usedUp(clock.now() + 100_000, clock.now())); // earlier than the hour: no change
    await flush();
    expect(late.settled).toBe(false);
    pool.resume();
    await flush();
  });

  test("60 s past the reset without an admission it is answered like any refusal", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    pool.windows.note(usedUp(clock.now() + 10_000, clock.now()));
    const probe = track(pool.acquire());
    const proxied = track(pool.acquire({ proxied: true, nearResetMs: 120_000 }));
    clock.advance(10_000);
    await flush();
    expect(probe.result?.ok).toBe(true); // the probe is out and never answers
    clock.advance(59_999);
    await flush();
    expect(proxied.settled).toBe(false);
    // Its deadline (armed first) and the probe's own 60 s fall on one instant: still unanswered, it is refused.
    clock.advance(1);
    await flush();
    expect(proxied.result).toEqual({ ok: false, failure: { kind: "timeout" } });
  });
});
