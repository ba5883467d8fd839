// The proxy benches' servers (proxy-bench-servers.ts: a fake provider, a bare relay, a host),
// each in a Node process of its own, read from the lines it prints once it listens.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export interface BenchServer {
  child: ChildProcess;
  /** The first `lines` lines it printed (its URL first; a host adds its API URL and token). */
  lines: string[];
}

export async function startBenchServer(args: string[], lines: number): Promise<BenchServer> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "proxy-bench-servers.ts"), ...args], {
    cwd: join(here, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const printed = await new Promise<string[]>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const all = out.split("\n");
      if (all.length > lines) resolve(all.slice(0, lines).map((line) => line.trim()));
    });
    child.once("exit", (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)));
  });
  return { child, lines: printed };
}

/** SIGTERM, then SIGKILL after 3 s. */
export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}
