// What `connect`, `disconnect`, `env` and `doctor` share: the proxy's address from the running
// host, the connect code over this user's files, and the question asked before a change.
import os from "node:os";
import { createInterface } from "node:readline/promises";
import { DEFAULT_PORTS } from "../shared/limits";
import { presetOf } from "../shared/presets";
import { ApiError, type ApiClient } from "../shared/api-client";
import { resolveDataDir } from "../electron/data-folder/data-dir";
import { Connector } from "../electron/connect/connector";
import { UsageError } from "./exit-codes";

/** The host's proxy; a host that is down or has no proxy is an error (exit 69 / a message). */
export async function proxyOf(client: ApiClient): Promise<string> {
  const info = await client.hostInfo();
  if (!info.proxyUrl) throw new ApiError(503, "unavailable", "its gating proxy is off, so there is nothing to point agents at; start it with a proxy port.");
  return info.proxyUrl;
}

/** Where the proxy would be when the host is down: what `disconnect` and `doctor` fall back to. */
export const DEFAULT_PROXY_URL = `http://127.0.0.1:${DEFAULT_PORTS.proxy}`;

export function connectorFor(env: NodeJS.ProcessEnv, proxyUrl: string): Connector {
  return new Connector({ dataDir: resolveDataDir(undefined, env), env, home: os.homedir(), cwd: process.cwd(), proxyUrl });
}

/** A port other than the default may change when the host restarts; the agent would then miss it. */
export function ephemeralPortNote(proxyUrl: string): string | undefined {
  const port = new URL(proxyUrl).port;
  if (port === String(DEFAULT_PORTS.proxy)) return undefined;
  return `The proxy listens on port ${port}, not the default ${DEFAULT_PORTS.proxy}: if the host starts on another port, run connect again.`;
}

/** Creates the provider from its preset when it is missing; a missing non-preset is a usage error. */
export async function ensureProvider(client: ApiClient, providerId: string, command: string): Promise<string | undefined> {
  try {
    await client.limit(providerId);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "unknown_provider") throw error;
  }
  const preset = presetOf(providerId);
  if (!preset) throw new UsageError(`provider ${providerId} does not exist; add it with \`headroom providers add ${providerId} <limit> --upstream <url>\`, or use a preset id`, command);
  await client.setLimit(preset.id, preset.limit);
  await client.setProvider(preset.id, { upstream: preset.upstream });
  return `Added provider ${preset.id} (limit ${preset.limit}, upstream ${preset.upstream}).`;
}

/** `--yes` answers; on a terminal the user does; off one, refuse naming --yes. */
export async function confirmed(question: string, yes: boolean, command: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError(`not a terminal, so no question can be asked: pass --yes to apply the change (or --dry-run to only see it)`, command);
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function printChanges(files: { path: string; diff: string }[]): void {
  for (const file of files) process.stdout.write(`${file.path}\n${file.diff}\n`);
}
