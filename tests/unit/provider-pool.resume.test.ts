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
