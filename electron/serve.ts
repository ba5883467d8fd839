// `npm run serve`: the main-process services without Electron, serving the window to a browser.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { resolveDataDir } from "./data-folder/data-dir";
import { HostStartError } from "./host/host-start-error";
import { startHost } from "./host/start-host";
import { DEFAULT_API_PORT, DEFAULT_PROXY_PORT, parsePort } from "./host/ports";
import { stopOnSignals } from "./host/stop-on-signals";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "proxy-port": { type: "string" },
      "data-dir": { type: "string" },
      redis: { type: "string" },
      "redis-prefix": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(
      [
        "Usage: npm run serve -- [--port <n>] [--proxy-port <n>] [--data-dir <path>] [--redis <url>] [--redis-prefix <p>]",
        "",
        "  --port        API and window port on 127.0.0.1 (HEADROOM_PORT, default 7411, 0 = any free port)",
        "  --proxy-port  gating proxy port (HEADROOM_PROXY_PORT, default 7412, 0 = any free port)",
        "  --data-dir    settings, token and lock folder (HEADROOM_DATA_DIR, default: the app's userData)",
        "  --redis       share providers across machines on this Redis (HEADROOM_REDIS_URL, preferred:",
        "                a command line shows in ps), e.g. redis://:password@10.0.0.5:6379/0 or rediss:// for TLS",
        "  --redis-prefix  key prefix in Redis (HEADROOM_REDIS_PREFIX, default headroom)",
        "  HEADROOM_HOST_NAME names this host in shared state (default <hostname>:<port>).",
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
    port: parsePort(values.port ?? process.env.HEADROOM_PORT, "--port", DEFAULT_API_PORT),
    proxyPort: parsePort(values["proxy-port"] ?? process.env.HEADROOM_PROXY_PORT, "--proxy-port", DEFAULT_PROXY_PORT),
    staticDir: join(root, "dist", "renderer"),
    redis: {
      ...(values.redis === undefined ? {} : { url: values.redis }),
      ...(values["redis-prefix"] === undefined ? {} : { prefix: values["redis-prefix"] }),
    },
    log: (message, state) => console.error(`[headroom] ${message}`, state ?? ""),
    // For the durability tests, which cannot wait 5 s per write.
    ...(process.env.HEADROOM_USAGE_WRITE_MS === undefined ? {} : { usageWriteMs: Number(process.env.HEADROOM_USAGE_WRITE_MS) }),
  });
  process.stdout.write(`Headroom listening on ${host.windowUrl}\n`);
  if (host.proxyUrl !== undefined) process.stdout.write(`Headroom proxy on ${host.proxyUrl}\n`);
  if (host.sharing) {
    process.stdout.write(`Headroom shares providers on Redis as ${host.sharing.hostName} (key prefix ${host.sharing.prefix})\n`);
  }

  stopOnSignals(async (signal) => {
    process.stderr.write(`Headroom: ${signal} received, shutting down.\n`);
    await host.stop();
  });
}

main().catch((error) => {
  if (error instanceof HostStartError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
