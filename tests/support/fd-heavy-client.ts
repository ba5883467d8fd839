// The attack on identity lookups (issue 32, item 1): one local process holding ~19,000 open
// files that opens a new loopback connection through the proxy 50 times a second. Every
// connection is a lookup, and the process's fd table is what a careless lookup reads whole.
// Used by the integration test (does everything still answer?) and the bench (how fast?).
import { spawn, type ChildProcess } from "node:child_process";

export interface FdHeavyOptions {
  /** A gated proxy URL, e.g. http://127.0.0.1:5555/anthropic/v1/messages. */
  url: string;
  /** Files held open (/dev/null) before the first request. */
  files: number;
  /** New connections per second, one request each (`connection: close`). */
  perSecond: number;
  headers?: Record<string, string>;
  /** The client's folder: agents' usage adds up by label (command · folder), so runs apart need folders apart. */
  cwd?: string;
}

export interface FdHeavyClient {
  child: ChildProcess;
  pid: number;
  /** Resolves once the files are open and the requests begin. */
  ready: Promise<void>;
  /** Status and milliseconds of every answered request so far, and the count of failed ones. */
  answered: Array<{ status: number; ms: number }>;
  failed: number;
  stop(): Promise<void>;
}

// Plain CommonJS for `node -e`: no loader, so the client starts in milliseconds.
const SCRIPT = String.raw`
const fs = require("fs"), http = require("http");
const { url, files, perSecond, headers } = JSON.parse(process.argv[1]);
for (let i = 0; i < files; i++) fs.openSync("/dev/null", "r");
process.stdout.write("ready\n");
const body = JSON.stringify({ model: "fd-heavy", max_tokens: 8, messages: [] });
setInterval(() => {
  const began = performance.now();
  const req = http.request(url, { method: "POST", agent: false, headers: {
    "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close", ...headers } }, (res) => {
    res.resume();
    res.on("end", () => process.stdout.write(res.statusCode + " " + (performance.now() - began).toFixed(2) + "\n"));
  });
  req.on("error", () => process.stdout.write("error\n"));
  req.end(body);
}, 1000 / perSecond);
`;

/** Starts the client with its open-files limit raised to the hard limit (a bash wrapper: `ulimit -n`). */
export function startFdHeavyClient(options: FdHeavyOptions): FdHeavyClient {
  const config = JSON.stringify({ url: options.url, files: options.files, perSecond: options.perSecond, headers: options.headers ?? {} });
  const child = spawn("bash", ["-c", 'ulimit -n "$(ulimit -Hn)" && exec "$0" -e "$1" "$2"', process.execPath, SCRIPT, config], {
    stdio: ["ignore", "pipe", "inherit"],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const client: FdHeavyClient = {
    child,
    pid: child.pid!,
    ready: new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`fd-heavy client exited with ${code} before it was ready (is \`ulimit -Hn\` ≥ ${options.files + 64}?)`)));
      let seen = "";
      const onData = (chunk: Buffer) => {
        seen += String(chunk);
        if (!seen.includes("ready\n")) return;
        child.stdout!.off("data", onData);
        resolve();
      };
      child.stdout!.on("data", onData);
    }),
    answered: [],
    failed: 0,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (rest + String(chunk)).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      if (line === "error") client.failed++;
      else if (line !== "ready") {
        const [status, ms] = line.split(" ");
        client.answered.push({ status: Number(status), ms: Number(ms) });
      }
    }
  });
  return client;
}
