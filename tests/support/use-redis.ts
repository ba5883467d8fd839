// One real redis-server per test file (./redis-server.ts): registers the file's hooks, started
// before its first test and stopped after its last. Call at the top of the file, before its own
// hooks: those then run after the server is up, and (vitest runs after-hooks as a stack) finish
// before it stops.
import { afterAll, beforeAll } from "vitest";
import { connectRedis, type RedisLink } from "../../electron/shared-pool/redis-link";
import { startRedisServer, type RedisServer, type RedisServerOptions } from "./redis-server";

export interface UsedRedisServer {
  readonly server: RedisServer;
}

export interface UsedRedis extends UsedRedisServer {
  /** The file's one connection, for tests that talk to Redis directly; closed before the server stops. */
  readonly link: RedisLink;
}

const START_WITHIN_MS = 60_000;

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`useRedis: the ${what} is not started yet (use it inside a hook or a test)`);
  return value;
}

/** The server alone, for files whose hosts connect to it themselves. */
export function useRedisServer(options: RedisServerOptions = {}): UsedRedisServer {
  let server: RedisServer | undefined;
  // As long as startRedisServer may itself take, retries included, on a loaded machine.
  beforeAll(async () => {
    server = await startRedisServer(options);
  }, START_WITHIN_MS);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server() {
      return started(server, "redis-server");
    },
  };
}

/** The server and a connection to it. */
export function useRedis(options: RedisServerOptions = {}): UsedRedis {
  const used = useRedisServer(options);
  let link: RedisLink | undefined;
  beforeAll(() => {
    link = connectRedis(used.server.url);
  });
  afterAll(async () => {
    await link?.close();
  });
  return {
    get server() {
      return used.server;
    },
    get link() {
      return started(link, "link");
    },
  };
}
