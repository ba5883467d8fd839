// Real hosts started with one real redis-server (SPEC §7), for end-to-end tests of shared
// providers: registers the suite's hooks and hands out hosts stopped after each test.
import { afterAll, afterEach, beforeAll } from "vitest";
import { startRedisServer, type RedisServer } from "./redis-server";
import { removeDir, startTestHost, tempDir, type TestHost } from "./test-host";

/** Call at the top of a test file; `host(name, prefix)` starts a host on the suite's Redis. */
export function useSharedHosts(): { host: (name: string, prefix: string) => Promise<TestHost> } {
  let redis: RedisServer | undefined;
  const started: TestHost[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    for (const running of started.splice(0)) {
      await running.stop();
      removeDir(running.dataDir);
    }
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return {
    async host(name, prefix) {
      if (!redis) throw new Error("useSharedHosts: Redis is not started yet (call host() inside a test)");
      const running = await startTestHost({ dataDir: tempDir(), redis: { url: redis.url, prefix, hostName: name } });
      started.push(running);
      return running;
    },
  };
}
