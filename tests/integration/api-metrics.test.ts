// GET /metrics after real proxy traffic, parsed back with a Prometheus text parser: the
// exact names and labels of SPEC §3, counters that match what happened, gauges read live.
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { afterEach, expect, test } from "vitest";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { removeDir, startTestHost, type TestHost } from "../support/test-host";

let h: ProxyHarness | undefined;
let other: TestHost | undefined;
afterEach(async () => {
  await h?.close();
  await other?.stop();
  if (other) removeDir(other.dataDir);
  h = other = undefined;
});

async function scrape(url: string, token: string): Promise<{ contentType: string | null; families: Map<string, ParsedFamily> }> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const families = parsePrometheusTextFormat(await response.text());
  return { contentType: response.headers.get("content-type"), families: new Map(families.map((f) => [f.name, f])) };
}

/** The value of the one sample of `name` whose labels include `labels`. */
function value(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string>): number | undefined {
  const family = families.get(name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

const ask = (model: string) => ({ model, max_tokens: 8, messages: [{ role: "user", content: "hi" }] });

test("metrics need the token and report admissions, releases by outcome, waits, limits and open routes", async () => {
  h = await startProxyHarness({ limit: 3, fake: { eventDelayMs: 0 } });
  const refused = await fetch(`${h.url}/metrics`);
  expect(refused.status).toBe(401);

  expect((await post(`${h.base}/v1/messages`, ask("steady-model"))).status).toBe(200);
  h.fake.script(529);
  expect((await post(`${h.base}/v1/messages`, ask("flaky-model"))).status).toBe(529);
  h.fake.script({ status: 429, headers: { "retry-after": "30" } });
  expect((await post(`${h.base}/v1/messages`, ask("busy-model"))).status).toBe(429);

  const { contentType, families } = await scrape(h.url, h.host.token);
  expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  const provider = { provider: "anthropic" };
  expect(value(families, "headroom_admissions_total", provider)).toBe(3);
  expect(value(families, "headroom_releases_total", { ...provider, outcome: "success" })).toBe(1);
  expect(value(families, "headroom_releases_total", { ...provider, outcome: "failure" })).toBe(1);
  expect(value(families, "headroom_releases_total", { ...provider, outcome: "rate_limited" })).toBe(1);
  expect(value(families, "headroom_rate_limited_total", provider)).toBe(1);
  expect(value(families, "headroom_limit", provider)).toBe(2); // lowered by the 429
  expect(value(families, "headroom_auto_reduced", provider)).toBe(1);
  expect(value(families, "headroom_paused", provider)).toBe(1);
  expect(value(families, "headroom_active", provider)).toBe(0);
  expect(value(families, "headroom_queued", provider)).toBe(0);
  expect(value(families, "headroom_recycling", provider)).toBe(0);

  const wait = families.get("headroom_wait_seconds")!;
  expect(wait.type).toBe("HISTOGRAM");
  // This parser folds a labelled histogram into its buckets (labels, sum and count dropped):
  // one provider, so the +Inf bucket is its count.
  expect(wait.metrics).toHaveLength(1);
  expect(wait.metrics[0]!.buckets).toMatchObject({ "+Inf": "3", "900": "3" });

  // Only the route that is not closed is listed: closed, unchanged routes keep the series few.
  const routes = families.get("headroom_route_state")!;
  expect(routes.metrics).toEqual([{ labels: { target: "anthropic", runtime: "http", model: "flaky-model" }, value: "1" }]);
});

test("gauges follow the live state at each scrape, and every host has its own registry", async () => {
  h = await startProxyHarness({ limit: 2, fake: { eventDelayMs: 0 } });
  other = await startTestHost();
  await other.client.setLimit("elsewhere", 7);

  await h.client.setLimit("anthropic", 5);
  let { families } = await scrape(h.url, h.host.token);
  expect(value(families, "headroom_limit", { provider: "anthropic" })).toBe(5);
  expect(value(families, "headroom_limit", { provider: "elsewhere" })).toBeUndefined();
  expect(value(families, "headroom_admissions_total", { provider: "anthropic" })).toBeUndefined();

  const lease = await h.client.acquire({ providerId: "anthropic" });
  ({ families } = await scrape(h.url, h.host.token));
  expect(value(families, "headroom_active", { provider: "anthropic" })).toBe(1);
  expect(value(families, "headroom_admissions_total", { provider: "anthropic" })).toBe(1);
  await h.client.release(lease.leaseId, "success");

  ({ families } = await scrape(other.url, other.host.token));
  expect(value(families, "headroom_limit", { provider: "elsewhere" })).toBe(7);
  expect(value(families, "headroom_limit", { provider: "anthropic" })).toBeUndefined();
});
