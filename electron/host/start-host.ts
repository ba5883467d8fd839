// Starts the main-process services on a data folder: lock, settings, service, loopback API.
// Both `npm run serve` and the Electron shell go through here, so they cannot drift apart.
import type { AgentHome } from "../service/connections-service";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { Server } from "node:http";
import { systemClock } from "../engine/clock";
import { createApiServer } from "../http/api-server";
import { createProxyServer, type ProxyServer } from "../proxy/proxy-server";
import type { LoopPressure } from "../proxy/loop-pressure";
import { HeadroomService } from "../service/headroom-service";
import { SharedHub } from "../shared-pool/shared-hub";
import { httpUsageProbe } from "../service/usage-probe";
import { looseModeNotices } from "./loose-modes";
import { openSettings, type BackendFactory } from "../settings/settings-store";
import { loadOrCreateToken } from "./api-token";
import { leaseIdSource } from "./lease-ids";
import { checkDataDir } from "../data-folder/data-dir";
import { acquireHostLock } from "./host-lock";
import { EXIT_DATA_DIR_UNUSABLE, HostStartError } from "./host-start-error";
import { defaultHostName, redisOptions, type RedisOptions } from "./redis-options";

export interface HostOptions {
  dataDir: string;
  port: number;
  kind: "app" | "serve";
  version: string;
  env?: NodeJS.ProcessEnv;
  staticDir?: string;
  leaseTtlMs?: number;
  /** The Electron shell passes a factory of electron-store built on the same schema. */
  settingsBackend?: BackendFactory;
  log?: (message: string, state?: unknown) => void;
  /** The gating proxy's port (0 = any free port); undefined = no proxy. */
  proxyPort?: number;
  /** Overrides every provider's responseTimeoutMs in the proxy (tests shorten it below its 1 s minimum). */
  proxyUpstreamIdleMs?: number;
  /** How long a tunnelled WebSocket may stay silent both ways (default 60 s; tests shorten it). */
  proxyWebSocketIdleMs?: number;
  /** How long a gated request body may take to arrive before a 408 (default 60 s; tests shorten it). */
  proxyBodyTimeoutMs?: number;
  /** Whether the proxy batches gated requests per loop turn (tests force it; default: while saturated). */
  proxyPressure?: LoopPressure;
  /** How often changed usage counts are written (SPEC §9: 5 s); tests shorten it. */
  usageWriteMs?: number;
  /** Whose agents `POST /connections` edits (SPEC §10); the host's user by default, a temp HOME in tests. */
  agentHome?: AgentHome;
  /** SPEC §7: share providers on this Redis; `--redis` flags, else HEADROOM_REDIS_URL and friends. */
  redis?: Partial<RedisOptions>;
}

export interface RunningHost {
  service: HeadroomService;
  token: string;
  port: number;
  /** The window's address, token in the fragment so it never reaches a server log. */
  windowUrl: string;
  /** Set when the gating proxy runs: http://127.0.0.1:<proxyPort>. */
  proxyUrl?: string;
  /** Set when Redis is configured (SPEC §7): this host's name there and the key prefix. */
  sharing?: { hostName: string; prefix: string };
  stop(): Promise<void>;
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const env = options.env ?? process.env;
  const unusable = checkDataDir(options.dataDir);
  if (unusable) throw new HostStartError(unusable, EXIT_DATA_DIR_UNUSABLE);
  const lock = acquireHostLock(options.dataDir, { kind: options.kind });
  if ("refused" in lock) throw new HostStartError(lock.refused);

  let server: Server | undefined;
  let proxy: ProxyServer | undefined;
  let service: HeadroomService | undefined;
  let hub: SharedHub | undefined;
  try {
    const redis = redisOptions(options.redis ?? {}, env);
    if (redis) hub = new SharedHub({ url: redis.url, prefix: redis.prefix, clock: systemClock });
    // Before the token is read: reading it narrows a token file's mode to owner-only.
    const loose = looseModeNotices(options.dataDir);
    for (const notice of loose) options.log?.(notice);
    const token = loadOrCreateToken(options.dataDir, env);
    const store = openSettings({
      dir: options.dataDir,
      ...(options.settingsBackend ? { backend: options.settingsBackend } : {}),
    });
    let apiUrl = "";
    let proxyUrl: string | undefined;
    let hostName = "";
    service = new HeadroomService({
      // Where agents reach this host (the window shows the lines they need); set once listening.
      hostInfo: () => ({ apiUrl, ...(proxyUrl === undefined ? {} : { proxyUrl }), version: options.version, hostName }),
      store,
      ...(loose.length > 0 ? { startupNotices: loose } : {}),
      clock: systemClock,
      newId: leaseIdSource(),
      usageProbe: httpUsageProbe,
      ...(options.leaseTtlMs === undefined ? {} : { leaseTtlMs: options.leaseTtlMs }),
      ...(options.usageWriteMs === undefined ? {} : { usageWriteMs: options.usageWriteMs }),
      ...(options.agentHome ? { agentHome: options.agentHome } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(hub ? { hub } : {}),
    });
    let live: HeadroomService | undefined = service;
    server = createApiServer({
      service: () => live,
      token,
      version: options.version,
      ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    });
    const port = await listen(server, options.port, "--port");
    apiUrl = `http://127.0.0.1:${port}`;
    if (options.proxyPort !== undefined) {
      const log = options.log;
      proxy = createProxyServer({
        service: () => live,
        ...(log ? { log: (message: string) => log(message) } : {}),
        ...(options.proxyUpstreamIdleMs === undefined ? {} : { upstreamIdleMs: options.proxyUpstreamIdleMs }),
        ...(options.proxyWebSocketIdleMs === undefined ? {} : { webSocketIdleMs: options.proxyWebSocketIdleMs }),
        ...(options.proxyBodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.proxyBodyTimeoutMs }),
        ...(options.proxyPressure === undefined ? {} : { pressure: options.proxyPressure }),
      });
      proxyUrl = `http://127.0.0.1:${await listen(proxy.server, options.proxyPort, "--proxy-port")}`;
    }
    service.ready();
    const windowUrl = `${apiUrl}/#token=${token}`;
    lock.update({ kind: options.kind, url: apiUrl });
    // SPEC §3 GET /host/info: every host has a name; with Redis it is the one it shares under (§7).
    hostName = redis?.hostName ?? defaultHostName(hostname(), port);
    const sharing = redis && hub ? { hostName, prefix: redis.prefix } : undefined;
    if (sharing) hub?.start(sharing.hostName);

    const running = service;
    const listening = server;
    const proxying = proxy;
    const shared = hub;
    let stopping: Promise<void> | undefined;
    return {
      service: running,
      token,
      port,
      windowUrl,
      ...(proxyUrl === undefined ? {} : { proxyUrl }),
      ...(sharing ? { sharing } : {}),
      stop: () =>
        (stopping ??= (async () => {
          live = undefined; // new requests get 503 while we wind down
          // Cut proxy streams first, so their slots and route claims are released into a live service.
          await proxying?.close();
          running.close(); // waiters are answered, settings and leases written
          await shared?.close(); // shared providers hand this host's leases and waiters back in Redis
          await closeServer(listening);
          lock.release();
        })()),
    };
  } catch (error) {
    if (proxy?.server.listening) await proxy.close();
    service?.close();
    await hub?.close();
    if (server?.listening) await closeServer(server);
    lock.release();
    throw error;
  }
}

function listen(server: Server, port: number, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new HostStartError(`Port ${port} on 127.0.0.1 is already in use; pass ${flag} <n> (or 0 for any free port).`)
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Lets answered requests flush, then cuts idle keep-alive and event-stream sockets. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 100).unref();
  });
}
