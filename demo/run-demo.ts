// `npm run demo`: see demo.ts for what runs. Prints the window's address, a legend, and the
// activity as it happens; Ctrl-C stops agents, host and fake provider cleanly.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { HostStartError } from "../electron/host/host-start-error";
import { DEFAULT_API_PORT, DEFAULT_PROXY_PORT, parsePort } from "../electron/host/ports";
import { stopOnSignals } from "../electron/host/stop-on-signals";
import { cliEnvironment, DEMO_PROVIDER, startDemo } from "./demo";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "data-dir": { type: "string" },
      port: { type: "string" },
      "proxy-port": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(
      [
        "Usage: npm run demo -- [--data-dir <path>] [--port <n>] [--proxy-port <n>]",
        "",
        "  --data-dir    settings folder (default: a fresh temp folder, removed on exit; your own settings are never touched)",
        "  --port        window and API port (default 7411, any free port when taken)",
        "  --proxy-port  gating proxy port (default 7412, any free port when taken)",
        "",
      ].join("\n"),
    );
    return;
  }
  const staticDir = join(root, "dist", "renderer");
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const apiPort = parsePort(values.port, "--port", DEFAULT_API_PORT);
  const proxyPort = parsePort(values["proxy-port"], "--proxy-port", DEFAULT_PROXY_PORT);
  const demo = await startDemo({
    version,
    staticDir,
    ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
    port: apiPort,
    proxyPort,
    log: (message) => console.error(`[headroom] ${message}`),
  });

  process.stdout.write(`Headroom listening on ${demo.host.windowUrl}\n`);
  process.stdout.write(`Headroom proxy on ${demo.proxyUrl}\n`);
  // The command line finds this host by these (its data folder is a temp one, not the app's).
  process.stdout.write(`For \`npx headroom status\` and the rest of the CLI, in another terminal:\n`);
  process.stdout.write(`  export ${cliEnvironment(demo)}\n`);
  process.stdout.write(`Data folder: ${demo.dataDir}${demo.ownDir ? " (removed when the demo stops)" : ""}\n`);
  process.stdout.write(
    `Demo: 8 agents → proxy → fake provider (allows 3) as ${DEMO_PROVIDER} (limit 4): watch the queue, a 429 pause, ` +
      `the auto-reduce banner, and a route opening on a scripted 529 and closing 5 s later. Ctrl-C stops.\n`,
  );
  if (!existsSync(join(staticDir, "index.html"))) {
    process.stdout.write("(The window is not built yet: run `npm run build:renderer`, or use `npm start` for the app.)\n");
  }

  // The activity list, echoed to the terminal: the service announces each event as it is recorded.
  demo.host.service.subscribe((topic) => {
    if (topic !== "history") return;
    const event = demo.host.service.historyEvents().events[0];
    if (event) process.stdout.write(`${new Date(event.at).toLocaleTimeString()}  ${event.message}\n`);
  });

  stopOnSignals(async (signal) => {
    process.stderr.write(`\nDemo: ${signal} received, stopping agents, host and fake provider.\n`);
    await demo.stop();
    const t = demo.tally;
    process.stdout.write(`Agents finished ${t.ok} requests (${t.rateLimited} met a 429, ${t.refused} were refused by an open route).\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof HostStartError ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
