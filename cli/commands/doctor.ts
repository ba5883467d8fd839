// `headroom doctor` (SPEC §10): the host, the proxy, each upstream (a TCP connection within
// 3 s, all in parallel), each agent's connection; `ok`/`warn`/`fail` lines saying what to do,
// exit 1 when anything fails.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Connector } from "../../electron/connect/connector";
import type { ConnectionEntry } from "../../shared/presets";
import { parseCommandArgs, takePositionals } from "../args";
import type { Command } from "../command";
import { connectorFor, DEFAULT_PROXY_URL } from "../agent-setup";

type Level = "ok" | "warn" | "fail";
interface Line {
  level: Level;
  text: string;
}

const UPSTREAM_TIMEOUT_MS = 3000;

/** Opens a TCP connection to the upstream's host and port within 3 s; undefined = it opened. */
function reachable(upstream: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(upstream);
    } catch {
      resolve("not a URL");
      return;
    }
    const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(UPSTREAM_TIMEOUT_MS, () => done(`no connection within ${UPSTREAM_TIMEOUT_MS / 1000} s`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

function agentLines(connections: ConnectionEntry[], hostUp: boolean, providers: Set<string> | undefined): Line[] {
  const lines: Line[] = [];
  for (const c of connections) {
    if (c.connected && !hostUp) lines.push({ level: "fail", text: `${c.name} is connected to Headroom, so it fails while Headroom is not running: start Headroom, or run headroom disconnect ${c.agent}` });
    else if (c.connected && providers && c.provider && !providers.has(c.provider)) lines.push({ level: "fail", text: `${c.name} goes to provider ${c.provider}, which does not exist: headroom providers add ${c.provider}` });
    else if (c.connected) lines.push({ level: "ok", text: `${c.name} is connected to ${c.provider ?? "Headroom"}` });
    else if (c.installed) lines.push({ level: "warn", text: `${c.name} is installed but not connected: headroom connect ${c.agent}` });
    for (const warning of c.connected ? (c.warnings ?? []) : []) lines.push({ level: "warn", text: warning });
  }
  return lines;
}

/** The words of a shell command as connect writes them (bare, or in single quotes). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

/** Claude Code's status line (SPEC §10): installed by connect, and its Node and script still there. */
function statusLineLines(state: ReturnType<Connector["claudeStatusLine"]>): Line[] {
  if (state === undefined) return [];
  if (!state.installed) return [{ level: "warn", text: "Claude Code's status line does not show Headroom: headroom connect claude adds it (keeping yours after it)" }];
  const [node, script] = shellWords(state.command);
  const missing = [node, script].filter((word) => word !== undefined && path.isAbsolute(word) && !fs.existsSync(word));
  if (missing.length > 0) return [{ level: "warn", text: `Claude Code's status line runs ${missing.join(" and ")}, which no longer exists: run headroom connect claude again` }];
  return [{ level: "ok", text: "Claude Code's status line shows Headroom (headroom statusline)" }];
}

export const doctorCommand: Command = async (argv, context) => {
  const { positionals } = parseCommandArgs("doctor", argv, {});
  takePositionals("doctor", positionals, []);
  const lines: Line[] = [];
  const { client, url } = context.connection();
  const info = await client.hostInfo().catch(() => undefined);
  let providers: Set<string> | undefined;
  if (!info) lines.push({ level: "fail", text: `Headroom is not running at ${url}: start it with \`npm run serve\` or the app (or set HEADROOM_URL)` });
  else {
    lines.push({ level: "ok", text: `Headroom ${info.version} runs at ${info.apiUrl || url}` });
    lines.push(info.proxyUrl ? { level: "ok", text: `the gating proxy listens at ${info.proxyUrl}` } : { level: "fail", text: "the gating proxy is off: start the host with a proxy port" });
    const { limits } = await client.limits();
    providers = new Set(limits.map((l) => l.providerId));
    const configs = await Promise.all(limits.map((l) => client.provider(l.providerId)));
    const checks = await Promise.all(configs.map(async (config) => [config, config.upstream ? await reachable(config.upstream) : undefined] as const));
    for (const [config, problem] of checks) {
      if (!config.upstream) lines.push({ level: "warn", text: `provider ${config.providerId} has no upstream, so the proxy cannot forward its requests: headroom providers upstream ${config.providerId} <url>` });
      else if (problem) lines.push({ level: "fail", text: `provider ${config.providerId}: ${config.upstream} cannot be reached (${problem}); check the network or the URL` });
      else lines.push({ level: "ok", text: `provider ${config.providerId}: ${config.upstream} is reachable` });
    }
  }
  const connector = connectorFor(process.env, info?.proxyUrl ?? DEFAULT_PROXY_URL);
  const connections = connector.list();
  lines.push(...agentLines(connections, info !== undefined, providers));
  const claude = connections.find((c) => c.agent === "claude");
  if (claude?.connected) lines.push(...statusLineLines(connector.claudeStatusLine()));
  process.stdout.write(lines.map((line) => `${line.level.padEnd(4)}  ${line.text}\n`).join(""));
  return lines.some((line) => line.level === "fail") ? 1 : 0;
};
