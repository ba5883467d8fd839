// Real `npm run serve` processes sharing providers on one real redis-server (SPEC §7), for
// the cross-host tests: each with its own data folder, API and gating proxy, named by
// HEADROOM_HOST_NAME, and what a user would poll to see shared state settle.
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { startServe, type ServeProcess } from "./serve-process";
import { removeDir, tempDir } from "./test-host";

export interface SharedServeHost extends ServeProcess {
  name: string;
  /** The gating proxy's origin, e.g. http://127.0.0.1:41235. */
  proxyUrl: string;
}

/**
 * Starts one serve process per name, all on `redisUrl` under `prefix`, in parallel. The last
 * is told by `--redis` and `--redis-prefix`, the others by HEADROOM_REDIS_URL and
 * HEADROOM_REDIS_PREFIX, so both ways are used; each is named by HEADROOM_HOST_NAME.
 */
export async function startSharedHosts(redisUrl: string, prefix: string, names: string[]): Promise<SharedServeHost[]> {
  return Promise.all(
    names.map(async (name, i) => {
      const byFlags = i === names.length - 1;
      const serve = await startServe({
        dataDir: tempDir("headroom-shared-host-"),
        ...(byFlags
          ? { args: ["--redis", redisUrl, "--redis-prefix", prefix], env: { HEADROOM_HOST_NAME: name } }
          : { env: { HEADROOM_REDIS_URL: redisUrl, HEADROOM_REDIS_PREFIX: prefix, HEADROOM_HOST_NAME: name } }),
      });
      const { proxyUrl, hostName } = await serve.client.hostInfo();
      if (proxyUrl === undefined || hostName !== name) throw new Error(`serve ${name} has no proxy or another name (${hostName})`);
      return { ...serve, name, proxyUrl };
    }),
  );
}

export async function stopSharedHosts(hosts: SharedServeHost[]): Promise<void> {
  await Promise.all(hosts.map((host) => host.stop()));
  for (const host of hosts) removeDir(host.dataDir);
}

/** Polls `read` until `ok` says yes; fails with the last value read after `withinMs`. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, withinMs = 15_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function entryOf(host: SharedServeHost, providerId: string): Promise<ConcurrencyStatusEntry | undefined> {
  return (await host.client.status()).providers.find((entry) => entry.providerId === providerId);
}

/** Every host's status entry for the provider, in the hosts' order. */
export function entries(hosts: SharedServeHost[], providerId: string): Promise<(ConcurrencyStatusEntry | undefined)[]> {
  return Promise.all(hosts.map((host) => entryOf(host, providerId)));
}

/**
 * Shares `providerId` on every host: the first seeds Redis with `limit` and `cooldownMs`; the
 * others join (Redis's settings win over theirs). Each host gets its own `upstream`, since the
 * upstream stays host-local (SPEC §7). Resolves once every host sees the limit and all hosts.
 */
export async function shareProvider(
  hosts: SharedServeHost[],
  providerId: string,
  settings: { limit: number; cooldownMs: number; upstream?: string },
): Promise<void> {
  for (const [i, host] of hosts.entries()) {
    // Only the first host's settings are Redis's; a joining host's own limit loses.
    await host.client.setLimit(providerId, i === 0 ? settings.limit : settings.limit + 5);
    await host.client.setCooldown(providerId, settings.cooldownMs);
    await host.client.setProvider(providerId, { shared: true, ...(settings.upstream === undefined ? {} : { upstream: settings.upstream }) });
  }
  await until(
    () => entries(hosts, providerId),
    (all) => all.every((entry) => entry?.shared === true && entry.limit === settings.limit && entry.hosts === hosts.length),
    `every host to share ${providerId} at limit ${settings.limit}`,
  );
}

/** Resolves once no host holds or queues anything on the provider, as each host's status says. */
export function drained(hosts: SharedServeHost[], providerId: string): Promise<unknown> {
  return until(
    () => entries(hosts, providerId),
    (all) => all.every((entry) => entry?.active === 0 && entry.queued === 0),
    `every host to show ${providerId} with nothing held or queued`,
  );
}
