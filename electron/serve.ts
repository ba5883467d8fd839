// `npm run serve`: the main-process services without Electron, serving the window to a browser.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { resolveDataDir } from "./host/data-dir";
import { HostStartError, startHost } from "./host/start-host";
import { stopOnSignals } from "./host/stop-on-signals";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function portFrom(flag: string | undefined, envValue: string | undefined, fallback: number, name: string): number {
  const raw = flag ?? envValue;
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new HostStartError(`${name} must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`);
  }
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "proxy-port": { type: "string" },
      "data-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(
      [
        "Usage: npm run serve -- [--port <n>] [--proxy-port <n>] [--data-dir <path>]",
        "",
        "  --port        API and window port on 127.0.0.1 (HEADROOM_PORT, default 7411, 0 = any free port)",
        "  --proxy-port  gating proxy port (HEADROOM_PROXY_PORT, default 7412, 0 = any free port)",
        "  --data-dir    settings, token and lock folder (HEADROOM_DATA_DIR, default: the app's userData)",
        "  HEADROOM_TOKEN overrides the API token kept in <data-dir>/api-token.",
        "",
      ].join("\n"),
    );
    return;
  }
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const host = await startHost({
    kind: "serve",
    version,
    dataDir: resolveDataDir(values["data-dir"], process.env),
    port: portFrom(values.port, process.env.HEADROOM_PORT, 7411, "--port"),
    proxyPort: portFrom(values["proxy-port"], process.env.HEADROOM_PROXY_PORT, 7412, "--proxy-port"),
    staticDir: join(root, "dist", "renderer"),
    log: (message, state) => console.error(`[headroom] ${message}`, state ?? ""),
  });
  process.stdout.write(`Headroom listening on ${host.windowUrl}\n`);
  if (host.proxyUrl !== undefined) process.stdout.write(`Headroom proxy on ${host.proxyUrl}\n`);

  stopOnSignals(async (signal) => {
    process.stderr.write(`Headroom: ${signal} received, shutting down.\n`);
    await host.stop();
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof HostStartError ? error.message : (error as Error).stack ?? error}\n`);
  process.exit(1);
});
