// SPEC §8's hold for a shared provider, on this host before Redis: new leases wait while the
// hold holds, agents at work pass, waiters give up at their deadline or abort, and once the
// window drains everyone held goes on, oldest first.
import { expect, test } from "vitest";
import { WindowHold } from "../../electron/shared-pool/window-hold";
import { createFakeClock } from "../support/fake-clock";

function harness() {
  const clock = createFakeClock();
  let reason: string | undefined = "holding new agents: 5-hour window at 92 %";
  const hold = new WindowHold(clock, () => reason);
  return { clock, hold, drain: () => (reason = undefined) };
}

test("new leases wait with the reason; an agent admitted here in the last 10 minutes passes on the proxy", async () => {
  const { clock, hold, drain } = harness();
  hold.admitted("claude #7");
  expect(await hold.pass({ proxied: true, agentId: "claude #7" })).toBe("go");
  const order: string[] = [];
  const first = hold.pass({ agentId: "a" }).then((p) => order.push(`a:${p}`));
  const second = hold.pass({ proxied: true, agentId: "codex #9" }).then((p) => order.push(`b:${p}`));
  expect(hold.size).toBe(2);
  expect(hold.waitReason()).toBe("holding new agents: 5-hour window at 92 %");
  clock.advance(10 * 60_000 + 1);
  const late = hold.pass({ proxied: true, agentId: "claude #7" }); // not at work any more: held
  expect(hold.size).toBe(3);
  hold.check();
  expect(hold.size).toBe(3); // still holding
  drain();
  hold.check();
  await Promise.all([first, second, late]);
  expect(order).toEqual(["a:go", "b:go"]);
  expect(hold.size).toBe(0);
});

test("a held waiter times out at its deadline, aborts when its client leaves, and is removed at dispose", async () => {
  const { clock, hold } = harness();
  expect(await hold.pass({ timeoutMs: 0 })).toBe("timeout");
  const timed = hold.pass({ timeoutMs: 5_000 });
  const controller = new AbortController();
  const aborted = hold.pass({ signal: controller.signal });
  const removed = hold.pass({});
  clock.advance(5_000);
  expect(await timed).toBe("timeout");
  controller.abort();
  expect(await aborted).toBe("aborted");
  hold.dispose();
  expect(await removed).toBe("removed");
});
