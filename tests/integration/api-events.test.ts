import { afterEach, beforeEach, expect, test } from "vitest";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
});

interface SseEvent {
  event: string;
  data: any;
}

/** Reads /events with a streaming fetch (which, unlike EventSource, can send the token). */
async function openEvents(
  abort: AbortController,
): Promise<{ next: (pred: (e: SseEvent) => boolean) => Promise<SseEvent>; count: (event: string) => number }> {
  const res = await fetch(`${t.url}/events`, {
    headers: { authorization: `Bearer ${t.host.token}` },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const queue: SseEvent[] = [];
  const counts = new Map<string, number>();
  const read = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error("stream ended");
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) {
        queue.push({ event, data: JSON.parse(data) });
        counts.set(event, (counts.get(event) ?? 0) + 1);
      }
    }
  };
  return {
    count: (event) => counts.get(event) ?? 0,
    async next(pred) {
      for (;;) {
        const i = queue.findIndex(pred);
        if (i >= 0) return queue.splice(0, i + 1).pop()!;
        await read();
      }
    },
  };
}

// How soon a change is pushed is measured by `npm run bench -- ui` (SPEC §4's 250 ms), not here.
test("the event stream starts with every snapshot and pushes each change", async () => {
  const abort = new AbortController();
  const events = await openEvents(abort);
  expect((await events.next((e) => e.event === "status")).data).toEqual({ providers: [] });
  expect((await events.next((e) => e.event === "routes")).data.settings).toEqual({ threshold: 1, cooldownMs: 15000 });
  await events.next((e) => e.event === "history");

  await t.client.setLimit("anthropic", 5);
  const pushed = await events.next((e) => e.event === "status" && e.data.providers.length === 1);
  expect(pushed.data.providers[0]).toMatchObject({ providerId: "anthropic", limit: 5 });

  await t.client.routeOutcome({ targetId: "x", runtimeId: "http", modelId: "m" }, "r", "failure");
  const routes = await events.next((e) => e.event === "routes" && e.data.routes.length === 1);
  expect(routes.data.routes[0].state).toBe("open");
  abort.abort();
});

test("a burst of changes is coalesced into a few pushes, the last one current", async () => {
  await t.client.setLimit("anthropic", 1000);
  await t.client.setCooldown("anthropic", 0);
  const abort = new AbortController();
  const events = await openEvents(abort);
  await events.next((e) => e.event === "status");
  const leases = await Promise.all(Array.from({ length: 200 }, () => t.client.acquire({ providerId: "anthropic" })));
  const last = await events.next((e) => e.event === "status" && e.data.providers[0].active === 200);
  expect(last.data.providers[0].active).toBe(200);
  // 200 admissions, each a change: far fewer pushes than changes reach the window.
  expect(events.count("status")).toBeLessThan(100);
  await Promise.all(leases.map((l) => t.client.release(l.leaseId, "success")));
  abort.abort();
});
