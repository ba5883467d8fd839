// SPEC §10 on a shared provider (§7): windows a client posted to one host go the same way
// through Redis as the proxy's readings, so the other host shows them too, and neither host
// pauses for them. Two real hosts on one real redis-server.
import { afterEach, expect, test } from "vitest";
import { startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { freshPrefix } from "../support/shared-pool-harness";
import { until } from "../support/shared-serve-hosts";
import { useRedis } from "../support/use-redis";

const redis = useRedis();
const started: ProxyHarness[] = [];
afterEach(async () => {
  for (const h of started.splice(0)) await h.close();
});

async function sharedHost(name: string, prefix: string): Promise<ProxyHarness> {
  const h = await startProxyHarness({ limit: 2, host: { redis: { url: redis.server.url, prefix, hostName: name } } });
  started.push(h);
  await h.client.setProvider("anthropic", { shared: true });
  return h;
}

test("a window posted to one host shows on the other; a used-up one pauses neither", async () => {
  const prefix = freshPrefix();
  const laptop = await sharedHost("laptop", prefix);
  const devbox = await sharedHost("devbox", prefix);
  const entry = async (h: ProxyHarness) => (await h.client.status()).providers.find((p) => p.providerId === "anthropic")!;
  await until(() => entry(devbox), (e) => e.hosts === 2, "both hosts on the provider");

  const resetsAt = Math.round((Date.now() + 3_600_000) / 1000) * 1000;
  const answered = await laptop.client.reportWindows("anthropic", [{ name: "5h", usedPercent: 100, resetsAt }, { name: "7d", usedPercent: 40 }]);
  expect(answered.paused).toBe(false);
  const seen = await until(
    () => entry(devbox),
    (e) => e.windows?.some((w) => w.name === "5h" && w.usedPercent === 100 && w.resetsAt === resetsAt) === true,
    "devbox to show the posted 5-hour window",
  );
  expect(seen.paused).toBe(false);
  expect(seen.windows?.find((w) => w.name === "7d")?.usedPercent).toBe(40);
  expect((await entry(laptop)).paused).toBe(false);
});
