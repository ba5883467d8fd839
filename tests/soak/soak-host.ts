// The soak's host: `serve` with a short lease TTL, so agents that crash holding a slot give it
// back within seconds and the soak can check that no slot is ever leaked for good.
import { startHost } from "../../electron/host/start-host";
import { stopOnSignals } from "../../electron/host/stop-on-signals";

const [dataDir = "", port = "0", ttl = "3000"] = process.argv.slice(2);

async function main(): Promise<void> {
  const host = await startHost({ kind: "serve", version: "0.0.0-soak", dataDir, port: Number(port), leaseTtlMs: Number(ttl), env: {} });
  process.stdout.write(`Headroom listening on ${host.windowUrl}\n`);
  stopOnSignals(() => host.stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
