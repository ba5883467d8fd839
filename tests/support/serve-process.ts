// `npm run serve` as a real child process on 127.0.0.1, for the window tests and the UI bench:
// started on an ephemeral (or a given) port over a data folder, stopped with SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApiClient, type ApiClient } from "../../shared/api-client";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LISTENING = /Headroom listening on (http:\/\/127\.0\.0\.1:(\d+))\/#token=(\S+)/;
const PROXY = /Headroom proxy on (\S+)\n/;

export interface ServeProcess {
  /** The API origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** What serve printed: the window's address with the token in the fragment. */
  windowUrl: string;
  port: number;
  /** The serve process, for its memory (/proc) or a kill -9. */
  pid: number;
  token: string;
  /** The gating proxy's origin, once serve has printed it. */
  proxyOrigin(): Promise<string>;
  dataDir: string;
  client: ApiClient;
  stop(): Promise<void>;
  /** kill -9: no shutdown code runs, as in a power cut of the process. */
  crash(): Promise<void>;
}

function withoutHeadroomEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("HEADROOM_")));
}

export interface ServeOptions {
  dataDir: string;
  port?: number;
  /** Replaces serve's entry point and arguments (the soak's host passes its own). */
  script?: string[];
  /** More of serve's arguments, e.g. `--redis-prefix`. */
  args?: string[];
  /** Set on top of this process's environment, whose HEADROOM_* variables are never passed on. */
  env?: Record<string, string>;
}

export function startServe(options: ServeOptions): Promise<ServeProcess> {
  const serveArgs = ["electron/serve.ts", "--port", String(options.port ?? 0), "--proxy-port", "0", "--data-dir", options.dataDir, ...(options.args ?? [])];
  const child = spawn(process.execPath, ["--import", "tsx", ...(options.script ?? serveArgs)], {
    cwd: repoRoot,
    env: { ...withoutHeadroomEnv(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = "";
    const proxyOrigin = () =>
      new Promise<string>((found) => {
        const look = () => {
          const match = PROXY.exec(stdout);
          if (!match) return false;
          child.stdout?.off("data", look);
          found(match[1]!);
          return true;
        };
        if (!look()) child.stdout?.on("data", look);
      });
    const onExit = (code: number | null) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`));
    child.once("exit", onExit);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = LISTENING.exec(stdout);
      if (!found) return;
      child.off("exit", onExit);
      const [windowUrl, url, port, token] = [found[0].replace("Headroom listening on ", ""), found[1]!, Number(found[2]), found[3]!];
      resolve({
        url,
        windowUrl,
        port,
        pid: child.pid!,
        token,
        proxyOrigin,
        dataDir: options.dataDir,
        client: createApiClient({ baseUrl: url, token }),
        stop: () => stopChild(child),
        crash: () => crashChild(child),
      });
    });
  });
}

function crashChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
