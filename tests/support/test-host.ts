import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient, type ApiClient } from "../../shared/api-client";
import { startHost, type HostOptions, type RunningHost } from "../../electron/host/start-host";

export function tempDir(prefix = "headroom-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestHost {
  host: RunningHost;
  client: ApiClient;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** A real host on an ephemeral 127.0.0.1 port over a real data folder. */
export async function startTestHost(options: Partial<HostOptions> = {}): Promise<TestHost> {
  const dataDir = options.dataDir ?? tempDir();
  const host = await startHost({ kind: "serve", version: "0.0.0-test", port: 0, env: {}, ...options, dataDir });
  const url = `http://127.0.0.1:${host.port}`;
  return {
    host,
    client: createApiClient({ baseUrl: url, token: host.token }),
    url,
    dataDir,
    stop: () => host.stop(),
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => any;
}

/** node:http directly, for what fetch will not send (a foreign Host header, broken JSON...). */
export function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${options.path}`, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the check passes (real servers, real time: bounded, never a fixed sleep). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw lastError;
    await sleep(10);
  }
}
