import { expect, test } from "vitest";
import { identify } from "../../electron/agents/agent-identity";
import { AgentTracker, SEEN_FOR_MS } from "../../electron/agents/agent-tracker";

const none = () => undefined;
const claude = identify({ header: "claude", process: { pid: 11, command: "claude", cwd: "/src/api" } });
const codex = identify({ userAgent: "codex_cli_rs/0.46.0" });

test("running and waiting come first, with the waiter's position, then the idle by last sight", () => {
  const tracker = new AgentTracker();
  const a = tracker.asking(claude, "anthropic", 1_000);
  tracker.admitted(a, "lease-1");
  const b = tracker.asking(codex, "anthropic", 2_000);
  tracker.waitStarted(b);
  const idle = tracker.asking(identify({ header: "old" }), "anthropic", 500);
  void idle;
  const pools = [{ providerId: "anthropic", held: [{ leaseId: "lease-1", agentId: "claude", admittedAt: 1_000 }], waiting: [{ waiterId: "w", agentId: "codex_cli_rs", position: 1, since: 2_000 }] }];
  const entries = tracker.entries(3_000, pools, none);
  expect(entries.map((entry) => [entry.label, entry.state, entry.position])).toEqual([
    ["claude · /src/api", "running", undefined],
    ["codex_cli_rs", "waiting", 1],
    ["old", "idle", undefined],
  ]);
  expect(entries[0]).toMatchObject({ key: "claude · /src/api #11", pid: 11, since: 1_000, lastSeenAt: 3_000 });
});

test("an agent not seen for an hour is forgotten; a lease that ended leaves its agent idle", () => {
  const tracker = new AgentTracker();
  const a = tracker.asking(claude, "anthropic", 0);
  tracker.admitted(a, "lease-1");
  tracker.waitEnded(a, 10);
  tracker.ended("lease-1", 20);
  expect(tracker.entries(30, [], none).map((entry) => [entry.state, entry.lastSeenAt])).toEqual([["idle", 20]]);
  expect(tracker.entries(20 + SEEN_FOR_MS + 1, [], none)).toEqual([]);
});

test("a request riding a headroom run lease takes its agent's name, and the lease's agent learns its process", () => {
  const tracker = new AgentTracker();
  const run = tracker.asking(identify({ leaseAgent: "migrator" }), "openai", 0);
  tracker.admitted(run, "lease-9");
  expect(tracker.leaseAgent("lease-9")).toBe("migrator");
  tracker.rode("lease-9", identify({ leaseAgent: "migrator", process: { pid: 77, command: "codex", cwd: "/src/db" } }), 5);
  const pools = [{ providerId: "openai", held: [{ leaseId: "lease-9", agentId: "migrator", admittedAt: 0 }], waiting: [] }];
  expect(tracker.entries(6, pools, none).map((entry) => [entry.label, entry.state, entry.pid])).toEqual([["migrator · /src/db", "running", 77]]);
});

test("a lease restored after a restart shows as its own agent", () => {
  const tracker = new AgentTracker();
  const pools = [{ providerId: "anthropic", held: [{ leaseId: "old", agentId: "nightly", admittedAt: 100 }], waiting: [] }];
  expect(tracker.entries(200, pools, none)).toEqual([expect.objectContaining({ label: "nightly", state: "running", since: 100 })]);
});

test("past 20,000 agents the one seen longest ago goes first; one that asked again is seen anew", () => {
  const tracker = new AgentTracker();
  const named = (name: string) => identify({ header: name });
  tracker.asking(named("first"), "anthropic", 0);
  tracker.asking(named("second"), "anthropic", 1);
  tracker.asking(named("second"), "anthropic", 2); // already the latest: stays where it is
  tracker.asking(named("first"), "anthropic", 3); // now seen after "second"
  for (let i = 0; i < 19_999; i++) tracker.asking(named(`agent-${i}`), "anthropic", 4);
  const labels = new Set(tracker.entries(5, [], none).map((entry) => entry.label));
  expect(labels.size).toBe(20_000);
  expect(labels.has("first")).toBe(true);
  expect(labels.has("second")).toBe(false);
});

test("a ride that finds an agent already known moves it to the end of the order: an idle one before it is still forgotten", () => {
  const tracker = new AgentTracker();
  const proc = { pid: 77, command: "codex", cwd: "/src/db" };
  const seenByProxy = identify({ header: "migrator", process: proc }); // "migrator · /src/db #77"
  tracker.asking(seenByProxy, "openai", 0);
  tracker.asking(identify({ header: "idle" }), "openai", 1);
  const run = tracker.asking(identify({ leaseAgent: "migrator" }), "openai", 2);
  tracker.admitted(run, "lease-9");
  tracker.rode("lease-9", identify({ leaseAgent: "migrator", process: proc }), 3); // the same key as the first
  tracker.ended("lease-9", 4);
  const later = 1 + SEEN_FOR_MS + 1;
  tracker.asking(seenByProxy, "openai", later); // at work all along
  expect(tracker.entries(later, [], none).map((entry) => entry.label)).toEqual(["migrator · /src/db"]);
});
