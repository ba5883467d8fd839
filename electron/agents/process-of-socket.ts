// The local process at the other end of a loopback TCP connection (SPEC §9). Linux: the
// client's socket is the line of /proc/net/tcp(6) whose local port is the connection's remote
// port; its inode leads to the pid through /proc/<pid>/fd, and the pid to its command and
// folder. macOS: lsof. Elsewhere (Windows) nothing is known and the user-agent names the agent.
import { execFile } from "node:child_process";
import { readdir, readFile, readlink } from "node:fs/promises";
import { basename } from "node:path";
import type { LocalProcess } from "./agent-identity";

const INTERPRETERS = new Set(["node", "nodejs", "bun", "deno", "python", "python3", "ruby", "perl", "sh", "bash"]);
const INLINE_CODE = new Set(["-e", "--eval", "-p", "--print", "-c"]);
const TAKES_VALUE = new Set(["-r", "--require", "--import", "--loader", "-m"]);
const GENERIC_SCRIPTS = new Set(["index", "cli", "main", "bin", "dist", "build", "lib", "src", "run", "entry", "node_modules"]);

/** A node or python process is named for its script (`…/@google/gemini-cli/dist/index.js` → `gemini-cli`). */
export function commandName(comm: string, argv: string[]): string {
  if (!INTERPRETERS.has(comm) && !/^python3?\.\d+$/.test(comm)) return comm;
  let script: string | undefined;
  for (let i = 1; i < argv.length && script === undefined; i++) {
    const arg = argv[i]!;
    if (INLINE_CODE.has(arg)) return comm; // `node -e "…"`: no script to be named for
    if (TAKES_VALUE.has(arg)) i++;
    else if (!arg.startsWith("-")) script = arg;
  }
  if (script === undefined || /\s/.test(script)) return comm;
  const parts = script.split(/[\\/]/).filter((part) => part !== "");
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!.replace(/\.(c|m)?(js|ts)$|\.py$/, "");
    if (part !== "" && !GENERIC_SCRIPTS.has(part) && !part.startsWith("@")) return part;
  }
  return comm;
}

/** The inode of the socket whose local end is 127.0.0.1/::1 port `clientPort` talking to `serverPort`. */
export function socketInode(table: string, clientPort: number, serverPort: number): string | undefined {
  const local = `:${clientPort.toString(16).toUpperCase().padStart(4, "0")}`;
  const remote = `:${serverPort.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of table.split("\n")) {
    const fields = line.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    if (fields.length < 10 || !fields[1]!.endsWith(local) || !fields[2]!.endsWith(remote)) continue;
    const inode = fields[9]!;
    if (inode !== "0") return inode;
  }
  return undefined;
}

/** Pids that held a client socket before: agents open many connections, so they are looked at first. */
const recentPids: number[] = [];

async function pidHolding(inode: string): Promise<number | undefined> {
  const target = `socket:[${inode}]`;
  const holds = async (pid: number) => {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      return false; // gone, or another user's
    }
    for (const fd of fds) {
      try {
        if ((await readlink(`/proc/${pid}/fd/${fd}`)) === target) return true;
      } catch {
        // closed meanwhile
      }
    }
    return false;
  };
  // A client inside this very process (the tests, the bench) is no agent: one look settles it.
  if (await holds(process.pid)) return undefined;
  for (const pid of recentPids) if (await holds(pid)) return pid;
  // Newest first: an agent is usually younger than the desktop's daemons around it.
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => b - a);
  for (const pid of pids) {
    if (pid === process.pid || recentPids.includes(pid)) continue;
    if (await holds(pid)) {
      recentPids.unshift(pid);
      if (recentPids.length > 16) recentPids.pop();
      return pid;
    }
  }
  return undefined;
}

async function linuxProcess(clientPort: number, serverPort: number): Promise<LocalProcess | undefined> {
  let inode: string | undefined;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    inode = socketInode(await readFile(table, "latin1").catch(() => ""), clientPort, serverPort);
    if (inode !== undefined) break;
  }
  if (inode === undefined) return undefined;
  const pid = await pidHolding(inode);
  if (pid === undefined) return undefined;
  const [comm, cmdline, cwd] = await Promise.all([
    readFile(`/proc/${pid}/comm`, "utf8").catch(() => ""),
    readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
    readlink(`/proc/${pid}/cwd`).catch(() => undefined),
  ]);
  const argv = cmdline.split("\0").filter((arg) => arg !== "");
  const command = commandName(comm.trim() || basename(argv[0] ?? ""), argv);
  return { pid, command, ...(cwd === undefined ? {} : { cwd }) };
}

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

/** The process that opened a connection from `clientPort` to this host's `serverPort`; undefined when unknown. */
export function processOfConnection(clientPort: number, serverPort: number): Promise<LocalProcess | undefined> {
  if (process.platform === "linux") return linuxProcess(clientPort, serverPort).catch(() => undefined);
  if (process.platform === "darwin") return macProcess(clientPort).catch(() => undefined);
  return Promise.resolve(undefined);
}
