// SPEC §6 "Names from the wire are tamed": a model name, an agent header and an upstream's
// reason learned through the proxy reach the status, the history, /metrics and `headroom
// routes` without control characters or escape sequences, cut to 128 characters.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { cliEnv, runCli } from "../support/cli-harness";
import { eventually } from "../support/test-host";
import { openRequest, post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Clears the screen and retitles the terminal if printed raw; long enough to need cutting. */
const HOSTILE_MODEL = `\u001b[2J\u001b]0;owned\u0007m${"x".repeat(150)}`;
const HOSTILE_AGENT = "agent\u0085\u009b31mred";
const HOSTILE_TYPE = "overloaded\u001b[31m\u009d";
const UNTAMED = /[\u0000-\u001f\u007f-\u009f]/;

function expectTamed(text: string, what: string): void {
  // A newline or tab of the view's own layout is fine; what the wire sent must not survive.
  const stripped = text.replace(/[\n\t]/g, "");
  expect(UNTAMED.test(stripped), `${what} holds a control character: ${JSON.stringify(stripped.match(UNTAMED))}`).toBe(false);
  expect(text).not.toContain("x".repeat(130));
}

test("a hostile model, agent and upstream reason reach status, history, /metrics and `headroom routes` tamed", async () => {
  h = await startProxyHarness({ limit: 2 });
  h.fake.configure({ firstByteDelayMs: 400 });
  const held = openRequest(`${h.base}/v1/messages`, { model: "held", messages: [] }, { "x-headroom-agent": HOSTILE_AGENT });
  const holders = await eventually(async () => {
    const { held } = await h!.client.leases(h!.providerId);
    expect(held).toHaveLength(1);
    return held;
  });
  expect(holders[0]!.agentId).toMatch(/^agent.+red$/);
  expectTamed(holders[0]!.agentId ?? "", "holder agent");
  expectTamed(JSON.stringify(await h.client.status()), "status");
  held.req.on("error", () => undefined);
  (await held.response).resume();
  h.fake.configure({ firstByteDelayMs: 0 });

  h.fake.script(500);
  expect((await post(`${h.base}/v1/messages`, { model: HOSTILE_MODEL, messages: [] })).status).toBe(500);
  const streamError = `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: HOSTILE_TYPE, message: "x" } })}\n\n`;
  h.fake.script({ status: 200, stream: [streamError] });
  await (await post(`${h.base}/v1/messages`, { model: "stream-model", messages: [] })).text;

  const routes = (await h.client.routes()).routes;
  expect(routes.map((r) => r.modelId)).toContain(`??m${"x".repeat(124)}…`);
  for (const route of routes) {
    expectTamed(route.modelId, "route model");
    expectTamed(route.reason ?? "", "route reason");
  }
  expect(routes.find((r) => r.modelId === "stream-model")?.reason).toContain("overloaded?");
  const history = (await h.client.history()).events;
  expect(history.some((e) => e.route?.modelId.startsWith("??m"))).toBe(true);
  expectTamed(JSON.stringify(history.map((e) => [e.message, e.route?.modelId])), "history");

  const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.host.token}` } })).text();
  expect(metrics).toContain('model="??mxxx');
  expectTamed(metrics, "/metrics");

  const cli = await runCli(["routes"], cliEnv(h));
  expect(cli.code).toBe(0);
  expect(cli.stdout).toContain("??mxxx");
  expectTamed(cli.stdout, "headroom routes");
});

/** Bidi controls and zero-width characters (issue 32): shown raw they make one name read as another. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

test.runIf(process.platform === "linux")(
  "a process whose folder and command hold bidi and zero-width characters reaches /agents and `headroom agents` tamed",
  async () => {
    h = await startProxyHarness({ limit: 2 });
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "headroom-\u202egnp.")));
    const script = "a\u2066ge\u200bnt.js";
    writeFileSync(
      join(folder, script),
      // A new connection every 200 ms: on a loaded machine one lookup may miss its 50 ms, not all.
      `setInterval(() => require("http").request(${JSON.stringify(`${h.base}/v1/messages`)}, { method: "POST", agent: false,
         headers: { "content-type": "application/json" } }, (res) => res.resume()).on("error", () => {}).end(JSON.stringify({ model: "m", messages: [] })), 200);`,
    );
    const child = spawn(process.execPath, [script], { cwd: folder, stdio: "ignore" });
    try {
      const agent = await eventually(async () => {
        const found = (await h!.client.agents()).agents.find((a) => a.pid === child.pid);
        expect(found).toBeDefined();
        return found!;
      }, 30_000);
      expect(agent.command).toBe("a?ge?nt");
      expect(agent.cwd).toContain("headroom-?gnp.");
      expect(agent.label).toMatch(/^a\?ge\?nt · .*headroom-\?gnp\./);
      expect(INVISIBLE.test(JSON.stringify(await h.client.agents()))).toBe(false);
      for (const args of [["agents"], ["agents", "--json"]]) {
        const cli = await runCli(args, cliEnv(h));
        expect(cli.code).toBe(0);
        expect(cli.stdout).toContain("a?ge?nt");
        expect(INVISIBLE.test(cli.stdout), `headroom ${args.join(" ")}`).toBe(false);
      }
    } finally {
      child.kill();
      rmSync(folder, { recursive: true, force: true });
    }
  },
  60_000,
);
