// `headroom providers share|unshare` and what `status` and `providers` print for a shared
// provider, against two real hosts on one real redis-server (SPEC §7).
import { afterEach, expect, test } from "vitest";
import { cliEnv, runCli } from "../support/cli-harness";
import { freshPrefix } from "../support/shared-pool-harness";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";
import { useRedisServer } from "../support/use-redis";

const redis = useRedisServer();
const started: TestHost[] = [];

afterEach(async () => {
  for (const host of started.splice(0)) {
    await host.stop();
    removeDir(host.dataDir);
  }
});

async function host(name: string, prefix: string): Promise<TestHost> {
  const running = await startTestHost({ dataDir: tempDir(), redis: { url: redis.server.url, prefix, hostName: name } });
  started.push(running);
  return running;
}

async function ok(h: TestHost, ...args: string[]): Promise<string> {
  const result = await runCli(args, cliEnv(h));
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
  return result.stdout;
}

const rowOf = (text: string, id: string) => text.split("\n").find((line) => line.startsWith(`${id} `));

test("share on two hosts: both tables count the hosts, status says Redis is connected; unshare makes it local here", async () => {
  const prefix = freshPrefix();
  const [laptop, devbox] = [await host("laptop", prefix), await host("devbox", prefix)];
  await laptop.client.setLimit("anthropic", 2);
  await devbox.client.setLimit("anthropic", 2);
  await laptop.client.setLimit("openai", 3);

  expect(await ok(laptop, "providers", "share", "anthropic")).toBe(
    "anthropic is shared now: every host on the same Redis keeps one limit and one queue for it.\n",
  );
  await ok(devbox, "providers", "share", "anthropic");
  await eventually(async () => expect(rowOf(await ok(laptop, "status"), "anthropic")).toMatch(/\bshared, 2 hosts$/), 10_000);

  const status = await ok(laptop, "status");
  expect(rowOf(status, "openai")).not.toMatch(/shared/);
  expect(status).toMatch(/\nRedis connected[^\n]*\n$/);
  const providers = await ok(laptop, "providers");
  expect(rowOf(providers, "anthropic")).toMatch(/\byes, 2 hosts$/);
  expect(rowOf(providers, "openai")).toMatch(/\s-$/);

  expect(await ok(laptop, "providers", "unshare", "anthropic")).toBe("anthropic is local to this host now.\n");
  expect(rowOf(await ok(laptop, "providers"), "anthropic")).toMatch(/\s-$/);
  await eventually(async () => expect(rowOf(await ok(devbox, "status"), "anthropic")).toMatch(/\bshared, 1 host$/), 10_000);
});
