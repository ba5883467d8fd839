// The local process at the other end of a loopback TCP connection (SPEC §9). Linux: from
// /proc (linux-sockets.ts). macOS: lsof. Elsewhere (Windows) nothing is known and the
// user-agent names the agent.
import { execFile } from "node:child_process";
import type { LocalProcess } from "./agent-identity";
import { LinuxSockets } from "./linux-sockets";

const run = (file: string, args: string[]) =>
  new Promise<string>((resolve) => execFile(file, args, { timeout: 2_000 }, (error, stdout) => resolve(error ? "" : stdout)));

/** lsof's -F output: `p<pid>`, `c<command>`, `n<name>` lines. */
async function macProcess(clientPort: number): Promise<LocalProcess | undefined> {
  const sockets = await run("lsof", ["-nP", `-iTCP@127.0.0.1:${clientPort}`, "-sTCP:ESTABLISHED", "-Fpc"]);
  let pid: number | undefined;
  let command: string | undefined;
  for (const line of sockets.split("\n")) {
    if (line.startsWith("p")) pid = Number(line.slice(1));
    else if (line.startsWith("c") && pid !== process.pid) command = line.slice(1);
    if (pid !== undefined && pid !== process.pid && command !== undefined) break;
  }
  if (pid === undefined || pid === process.pid || command === undefined) return undefined;
  const folder = (await run("lsof", ["-a", "-p", String(pid), "-d", "cwd", "-Fn"])).split("\n").find((line) => line.startsWith("n"));
  return { pid, command, ...(folder === undefined ? {} : { cwd: folder.slice(1) }) };
}

const linux = new LinuxSockets();

/** The process that opened a connection from `clientPort` to this host's `serverPort`; undefined when unknown. */
export function processOfConnection(clientPort: number, serverPort: number): Promise<LocalProcess | undefined> {
  if (process.platform === "linux") return linux.processOf(clientPort, serverPort);
  if (process.platform === "darwin") return macProcess(clientPort).catch(() => undefined);
  return Promise.resolve(undefined);
}
