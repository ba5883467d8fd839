// Real hosts started with one real redis-server (SPEC §7), for end-to-end tests of shared
// providers: registers the suite's hooks and hands out hosts stopped after each test.
import { afterEach } from "vitest";
import { removeDir, startTestHost, tempDir, type TestHost } from "./test-host";
import { useRedisServer } from "./use-redis";

/** Call at the top of a test file; `host(name, prefix)` starts a host on the suite's Redis. */
export function useSharedHosts(): { host: (name: string, prefix: string) => Promise<TestHost> } {
  const redis = useRedisServer();
  const started: TestHost[] = [];
  afterEach(async () => {
    for (const running of started.splice(0)) {
      await running.stop();
      removeDir(running.dataDir);
    }
  });
  return {
    async host(name, prefix) {
      const running = await startTestHost({ dataDir: tempDir(), redis: { url: redis.server.url, prefix, hostName: name } });
      started.push(running);
      return running;
    },
  };
}
