// SPEC §7 "Connecting": where shared providers live and what this host is called there. Flags
// win over the environment; the variable is the better place for a URL with a password in it,
// since a command line shows in `ps`.
import { HostStartError } from "./host-start-error";

export interface RedisOptions {
  url: string;
  prefix: string;
  /** HEADROOM_HOST_NAME; absent = `<os hostname>:<api port>`, known once the API listens. */
  hostName?: string;
}

const DEFAULT_PREFIX = "headroom";
const PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Lease ids of a shared provider start with the host's name (`<host>.<n>`), so it takes what a lease id may hold. */
const HOST_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The Redis settings, or undefined when none is configured (every provider stays local). */
export function redisOptions(given: Partial<RedisOptions>, env: NodeJS.ProcessEnv): RedisOptions | undefined {
  const url = given.url ?? nonEmpty(env.HEADROOM_REDIS_URL);
  if (url === undefined) return undefined;
  if (!/^rediss?:\/\/[^/]/.test(url)) {
    throw new HostStartError(
      "The Redis URL must start with redis:// or rediss:// (e.g. redis://127.0.0.1:6379/0); check --redis or HEADROOM_REDIS_URL.",
    );
  }
  if (!readable(url)) {
    // Never the URL itself: it may carry a password.
    throw new HostStartError(
      "The Redis URL cannot be read: check its host, port (a number) and %-escapes in the user and password; check --redis or HEADROOM_REDIS_URL.",
    );
  }
  const prefix = given.prefix ?? nonEmpty(env.HEADROOM_REDIS_PREFIX) ?? DEFAULT_PREFIX;
  if (!PREFIX.test(prefix)) {
    throw new HostStartError(
      `The Redis key prefix must be 1 to 64 letters, digits or _ . : - (got ${JSON.stringify(prefix)}); check --redis-prefix or HEADROOM_REDIS_PREFIX.`,
    );
  }
  const hostName = given.hostName ?? nonEmpty(env.HEADROOM_HOST_NAME);
  if (hostName !== undefined && !HOST_NAME.test(hostName)) {
    throw new HostStartError(
      `HEADROOM_HOST_NAME must be 1 to 64 letters, digits or _ . : - (got ${JSON.stringify(hostName)}).`,
    );
  }
  return { url, prefix, ...(hostName === undefined ? {} : { hostName }) };
}

/** SPEC §7's default name, `<os hostname>:<api port>`, kept to what a lease id may hold. */
export function defaultHostName(osHostName: string, port: number): string {
  const name = osHostName.replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 50) || "host";
  return `${name}:${port}`;
}

/** What the Redis client will parse: a URL, and user and password that %-decode. */
function readable(url: string): boolean {
  try {
    const parsed = new URL(url);
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
    return parsed.hostname !== "";
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
