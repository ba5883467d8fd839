// The bench's servers, each in its own process so the client, the proxy and the upstream do
// not share one event loop. Each prints its URL on the first line of stdout and stops on SIGTERM.
//   fake <modelMs>    the fake provider, answering after modelMs of pretend model time
//   host <upstream>   a host whose proxy serves provider "bench" (limit never reached, cooldown 0)
//   relay <upstream>  the floor: the plainest Node reverse proxy, no gating, no header care,
//                     so the figures separate the cost of any extra hop from Headroom's own
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider } from "../demo/fake-provider";
import { startHost } from "../electron/host/start-host";

function startRelay(upstream: URL): void {
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    // A keep-alive socket the upstream closed as it was reused: answer 502 rather than crash the bench.
    out.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(out);
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
  process.once("SIGTERM", () => process.exit(0));
}

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === "fake") {
    const fake = await startFakeProvider({ events: 1, eventDelayMs: Number(arg ?? 0) });
    process.stdout.write(`${fake.url}\n`);
    process.once("SIGTERM", () => void fake.close().then(() => process.exit(0)));
    return;
  }
  if (mode === "relay" && arg) return startRelay(new URL(arg));
  if (mode === "host" && arg) {
    const dataDir = mkdtempSync(join(tmpdir(), "headroom-bench-"));
    const host = await startHost({ kind: "serve", version: "bench", dataDir, port: 0, proxyPort: 0, env: {} });
    host.service.setLimit({ providerId: "bench", limit: 10_000 });
    host.service.setCooldown({ providerId: "bench", cooldownMs: 0 });
    host.service.setProviderConfig({ providerId: "bench", upstream: arg });
    // The second line (API URL and token) is for benches that also read /health or /agents.
    process.stdout.write(`${host.proxyUrl}/bench\nhttp://127.0.0.1:${host.port} ${host.token}\n`);
    process.once("SIGTERM", () =>
      void host.stop().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      }),
    );
    return;
  }
  throw new Error("usage: proxy-bench-servers.ts fake <modelMs> | host <upstream-url> | relay <upstream-url>");
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
