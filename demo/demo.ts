// `npm run demo` without the terminal: a host, the fake provider and eight simulated agents
// going through the gating proxy, tuned so that within seconds the window shows a queue, a
// 429 pause, the auto-reduce banner, and a route that opens on a scripted 529 and closes again;
// a ninth, under `headroom run --resume`, stops at the plan window and resumes at its reset.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostStartError } from "../electron/host/host-start-error";
import { startHost, type RunningHost } from "../electron/host/start-host";
import { startFakeProvider, type FakeProvider } from "./fake-provider";
import { runResumingAgent } from "./resuming-agent";
import { runAgent, type AgentTally } from "./simulated-agent";
import { DEFAULT_PORTS } from "../shared/limits";

export const DEMO_PROVIDER = "demo-anthropic";
// Real model names, so the price library prices the demo's answers and the window shows costs
// (API-equivalent: the fake provider sends plan-window readings) and each agent's window share.
const MODELS = ["claude-sonnet-4-5", "claude-haiku-4-5"];
/**
 * Who the simulated agents pretend to be (SPEC §9): a name and a project each, so the agents
 * list tells them apart. They run inside the demo's own process, which Headroom never counts
 * as an agent, so each names itself (x-headroom-agent) and sends its CLI's user-agent.
 */
const CAST = [
  { name: "claude", project: "~/src/api", userAgent: "claude-cli/2.0.14 (external, cli)" },
  { name: "codex", project: "~/src/web", userAgent: "codex_cli_rs/0.46.0 (Ubuntu 24.4.0; x86_64) xterm-256color" },
  { name: "claude", project: "~/src/billing", userAgent: "claude-cli/2.0.14 (external, cli)" },
  { name: "gemini", project: "~/src/mobile", userAgent: "GeminiCLI/0.9.0 (linux; x64)" },
  { name: "opencode", project: "~/src/infra", userAgent: "opencode/0.15.2" },
  { name: "reviewer", project: "~/src/api", userAgent: "claude-cli/2.0.14 (external, cli)" },
  { name: "migrator", project: "~/src/db", userAgent: "codex_cli_rs/0.46.0 (Ubuntu 24.4.0; x86_64) xterm-256color" },
  { name: "docs-bot", project: "~/src/docs", userAgent: "claude-cli/2.0.14 (external, cli)" },
];
/** The fake provider allows 3 at once while Headroom starts at 4: the first burst meets a 429. */
const PROVIDER_CAP = 3;
const START_LIMIT = 4;
/** Short breaker cooldown, so the route visibly opens and closes again within seconds. */
const ROUTE_COOLDOWN_MS = 5_000;
const FIRST_529_MS = 2_500;
const NEXT_529_EVERY_MS = 25_000;
// The plan window in fast motion (SPEC §8): full after 2 minutes, reset a minute later; new
// agents are held from 90 %, so the card shows the meter, the hold, the pause and the wake-up.
const PLAN_WINDOW = { fillMs: 120_000, resetMs: 60_000 };
const HOLD_NEW_AT_PERCENT = 90;

export interface DemoOptions {
  /** Defaults to a fresh temp folder, so the demo never touches the user's settings. */
  dataDir?: string;
  port?: number;
  proxyPort?: number;
  agents?: number;
  staticDir?: string;
  version?: string;
  log?: (message: string, state?: unknown) => void;
}

export interface RunningDemo {
  host: RunningHost;
  /** The settings folder; a temp one is removed when the demo stops. */
  dataDir: string;
  /** Whether dataDir is the demo's own temp folder. */
  ownDir: boolean;
  fake: FakeProvider;
  proxyUrl: string;
  tally: AgentTally;
  stop(): Promise<void>;
}

/** `HEADROOM_URL=… HEADROOM_TOKEN=…`: what `npx headroom` needs to reach the demo's host. */
export function cliEnvironment(demo: Pick<RunningDemo, "host">): string {
  return `HEADROOM_URL=${new URL(demo.host.windowUrl).origin} HEADROOM_TOKEN=${demo.host.token}`;
}

/** The preferred ports, or any free ones when those are taken (another Headroom running). */
async function startDemoHost(options: DemoOptions, dataDir: string): Promise<RunningHost> {
  const base = {
    kind: "serve" as const,
    version: options.version ?? "demo",
    dataDir,
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    ...(options.log ? { log: options.log } : {}),
  };
  const port = options.port ?? DEFAULT_PORTS.api;
  const proxyPort = options.proxyPort ?? DEFAULT_PORTS.proxy;
  try {
    return await startHost({ ...base, port, proxyPort });
  } catch (error) {
    const busy = error instanceof HostStartError && /already in use/.test(error.message);
    if (!busy || (port === 0 && proxyPort === 0)) throw error;
    return startHost({ ...base, port: 0, proxyPort: 0 });
  }
}

function castOf(i: number): { name: string; userAgent: string } {
  const cast = CAST[i % CAST.length]!;
  const round = Math.floor(i / CAST.length);
  return { name: `${cast.name} · ${cast.project}${round === 0 ? "" : ` (${round + 1})`}`, userAgent: cast.userAgent };
}

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "headroom-demo-"));
  // A budget far above what the agents use: the cards show the provider's own rate-limit headers.
  const fake = await startFakeProvider({ cap: PROVIDER_CAP, retryAfterSeconds: 1, events: 10, eventDelayMs: 100, requestsPerMinute: 10_000, planWindow: PLAN_WINDOW });
  let host: RunningHost;
  try {
    host = await startDemoHost(options, dataDir);
  } catch (error) {
    await fake.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { service } = host;
  service.setLimit({ providerId: DEMO_PROVIDER, limit: START_LIMIT }); // by hand: also clears a reduction left from an earlier run
  service.setCooldown({ providerId: DEMO_PROVIDER, cooldownMs: 350 });
  service.setProviderConfig({ providerId: DEMO_PROVIDER, upstream: fake.url, usageGate: null, holdNewAtPercent: HOLD_NEW_AT_PERCENT });
  service.setRouteSettings({ threshold: 1, cooldownMs: ROUTE_COOLDOWN_MS });

  const proxyUrl = host.proxyUrl!;
  const stopAgents = new AbortController();
  const tally: AgentTally = { ok: 0, rateLimited: 0, refused: 0, failed: 0 };
  const agents = Array.from({ length: options.agents ?? 8 }, (_, i) =>
    runAgent(
      {
        ...castOf(i),
        baseUrl: `${proxyUrl}/${DEMO_PROVIDER}`,
        model: MODELS[i % MODELS.length]!,
        signal: stopAgents.signal,
        thinkMs: [100, 600],
      },
      tally,
    ),
  );
  // SPEC §8: one headless agent under `headroom run --resume` stops at the used-up window and
  // resumes at its reset, first in line.
  agents.push(
    runResumingAgent({
      service,
      providerId: DEMO_PROVIDER,
      proxyUrl,
      agentId: "nightly",
      name: "nightly · ~/src/jobs",
      userAgent: "claude-cli/2.0.14 (external, sdk-cli)",
      model: MODELS[0]!,
      signal: stopAgents.signal,
    }),
  );
  // Scripted overloads: the next request after each tick is answered 529 and opens its route.
  const overload = () => fake.script(529);
  let repeat529: NodeJS.Timeout | undefined;
  const first529 = setTimeout(() => {
    overload();
    repeat529 = setInterval(overload, NEXT_529_EVERY_MS);
  }, FIRST_529_MS);

  let stopping: Promise<void> | undefined;
  return {
    host,
    dataDir,
    ownDir,
    fake,
    proxyUrl,
    tally,
    stop: () =>
      (stopping ??= (async () => {
        clearTimeout(first529);
        clearInterval(repeat529);
        stopAgents.abort();
        await Promise.all(agents);
        await host.stop();
        await fake.close();
        if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      })()),
  };
}
