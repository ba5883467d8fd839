// SPEC §3 through a real host: the ids `acquire` hands out are unguessable, on a local provider
// and on a shared one (`<host>.<32 hex>`, the host's name first so Redis's lists say whose it is).
import { afterEach, expect, test } from "vitest";
import { freshPrefix } from "../support/shared-pool-harness";
import { until } from "../support/shared-serve-hosts";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";
import { useRedisServer } from "../support/use-redis";

const redis = useRedisServer();
const started: TestHost[] = [];

afterEach(async () => {
  for (const host of started.splice(0)) {
    await host.stop();
    removeDir(host.dataDir);
  }
});

/** Two leases taken one after the other, each released before the next. */
async function twoSuccessive(h: TestHost, providerId: string): Promise<[string, string]> {
  const ids: string[] = [];
  for (const agentId of ["first", "second"]) {
    const { leaseId } = await h.client.acquire({ providerId, agentId });
    await h.client.release(leaseId, "success");
    ids.push(leaseId);
  }
  return ids as [string, string];
}

test("a local provider's successive lease ids are 128 random bits each, with no common part", async () => {
  const h = await startTestHost();
  started.push(h);
  await h.client.setLimit("anthropic", 1);
  const [first, second] = await twoSuccessive(h, "anthropic");
  expect(first).toMatch(/^[0-9a-f]{32}$/);
  expect(second).toMatch(/^[0-9a-f]{32}$/);
  // A counter or a per-start prefix would share its leading digits.
  expect(second.slice(0, 8)).not.toBe(first.slice(0, 8));
});

test("a shared provider's lease ids are the host's name and 128 random bits", async () => {
  const h = await startTestHost({ redis: { url: redis.server.url, prefix: freshPrefix(), hostName: "laptop" } });
  started.push(h);
  await h.client.setLimit("anthropic", 1);
  await h.client.setProvider("anthropic", { shared: true });
  await until(() => h.client.status(), (s) => s.providers.some((p) => p.providerId === "anthropic" && p.shared === true && p.hosts === 1), "the shared provider");
  const [first, second] = await twoSuccessive(h, "anthropic");
  expect(first).toMatch(/^laptop\.[0-9a-f]{32}$/);
  expect(second).toMatch(/^laptop\.[0-9a-f]{32}$/);
  expect(second.slice(7, 15)).not.toBe(first.slice(7, 15));
});
