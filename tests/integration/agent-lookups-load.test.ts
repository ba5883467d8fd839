// Issue 32, item 1 (SPEC §9: a lookup never delays a request more than 50 ms): a local
// process holding ~19,000 open files opens new connections through the proxy 50 times a
// second, each one an identity lookup. The host keeps answering: every request is answered,
// /health answers meanwhile, and the process is still told apart by its pid. How fast is the
// bench's to say (`npm run bench -- lookups`); this test asserts no timing.
import { execFileSync } from "node:child_process";
import { afterEach, expect, test } from "vitest";
import { startFdHeavyClient, type FdHeavyClient } from "../support/fd-heavy-client";
import { eventually } from "../support/test-host";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
let client: FdHeavyClient | undefined;
afterEach(async () => {
  await client?.stop();
  await h?.close();
  client = undefined;
  h = undefined;
});

/** As many files as the hard limit allows, up to the attack's 19,000. */
function files(): number {
  const hard = execFileSync("bash", ["-c", "ulimit -Hn"], { encoding: "utf8" }).trim();
  return hard === "unlimited" ? 19_000 : Math.min(19_000, Number(hard) - 128);
}

test.runIf(process.platform === "linux")(
  "a process holding 19,000 files and opening 50 connections a second is answered, traced to its pid, and /health answers meanwhile",
  async () => {
    h = await startProxyHarness({ limit: 64 });
    client = startFdHeavyClient({ url: `${h.base}/v1/messages`, files: files(), perSecond: 50 });
    await client.ready;
    const healthy: number[] = [];
    await eventually(async () => {
      const health = await fetch(`${h!.url}/health`);
      healthy.push(health.status);
      expect(client!.answered.length).toBeGreaterThanOrEqual(150);
    }, 60_000);
    expect(healthy.every((status) => status === 200)).toBe(true);
    expect(client.failed).toBe(0);
    expect(client.answered.filter((a) => a.status !== 200)).toEqual([]);
    const traced = await eventually(async () => {
      const agent = (await h!.client.agents()).agents.find((a) => a.pid === client!.pid);
      expect(agent).toBeDefined();
      return agent!;
    }, 30_000);
    expect(traced.command).toBe("node");
  },
  120_000,
);
