// `headroom connect <agent> --yes` with the real agents (pinned in scripts/agent-clis.mjs), each in
// a temp HOME, offline against the fake provider: afterwards the agent, started as its user
// always starts it (no base-URL variable, no flag; its headless one-shot mode), sends its
// generation through Headroom's proxy; after `disconnect` its configuration files are byte for
// byte what they were and it talks to its old endpoint again. Two homes per agent: a fresh one,
// and one whose configuration is full of other keys and comments and already points the agent
// at another endpoint (a second fake provider, the "old endpoint"; connect needs --replace).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../demo/fake-provider";
import { cliEnv, runCli as runHeadroom } from "../support/cli-harness";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { ANSWER, useAgents } from "./agent-harness";
import { AGENT_CONFIGS, type AgentCase } from "./connect-cases";

const { harness, freshHome } = useAgents();

/** Every configuration file the agent's case names: its text, or undefined when absent. */
const snapshot = (home: string, files: string[]) => Object.fromEntries(files.map((f) => [f, existsSync(join(home, f)) ? readFileSync(join(home, f), "utf8") : undefined]));

function headroom(h: ProxyHarness, home: string, args: string[]) {
  // Only the temp HOME: nothing of this machine's own agent configuration may leak in.
  return runHeadroom(args, cliEnv(h, { HOME: home, XDG_CONFIG_HOME: undefined, CODEX_HOME: undefined, CLAUDE_CONFIG_DIR: undefined } as unknown as Record<string, string>));
}

async function connectRoundTrip(agent: AgentCase, old: FakeProvider | undefined) {
  const h = harness(await startProxyHarness({ limit: 2, providerId: agent.provider, fake: { eventDelayMs: 0 } }));
  const home = freshHome(`headroom-connect-${agent.agent}-`);
  const work = join(home, "work");
  mkdirSync(work);
  const cases = agent.setup(home, old?.url);
  const before = snapshot(home, cases.files);

  const connected = await headroom(h, home, ["connect", agent.agent, "--yes", ...(old ? ["--replace"] : []), ...(agent.connectArgs ?? [])]);
  expect(connected.code, connected.stderr + connected.stdout).toBe(0);
  expect(connected.stdout).toContain(`Connected ${agent.agent} to ${agent.provider}`);

  const through = await agent.run(cases.env, work);
  expect(through.code, through.stderr).toBe(0);
  expect(through.stdout.trim()).toBe(ANSWER);
  expect(h.fake.stats.generations, "the fake upstream got the generation through the proxy").toBeGreaterThanOrEqual(1);
  expect(old?.stats.generations ?? 0).toBe(0);
  const viaProxy = h.fake.stats.generations;
  const usage = (await h.client.status()).providers.find((p) => p.providerId === agent.provider)!;
  expect(usage).toMatchObject({ active: 0, queued: 0 });

  const disconnected = await headroom(h, home, ["disconnect", agent.agent, "--yes"]);
  expect(disconnected.code, disconnected.stderr).toBe(0);
  expect(snapshot(home, cases.files)).toEqual(before);

  if (old) {
    const back = await agent.run(cases.env, work);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout.trim()).toBe(ANSWER);
    expect(old.stats.generations, "the old endpoint answers again").toBeGreaterThanOrEqual(1);
    expect(h.fake.stats.generations).toBe(viaProxy);
  }
  return { h, home, connected };
}

for (const agent of AGENT_CONFIGS) {
  test(`${agent.title}, fresh home: connect sends its request through the proxy; disconnect leaves no file behind`, async () => {
    await connectRoundTrip(agent, undefined);
  });

  test(`${agent.title}, a configuration full of other keys and comments pointing elsewhere: connect --replace, then disconnect gives it back byte for byte and the old endpoint answers again`, async () => {
    const old = await startFakeProvider({ eventDelayMs: 0 });
    try {
      await connectRoundTrip({ ...agent, setup: agent.setupExisting }, old);
    } finally {
      await old.close();
    }
  });
}
