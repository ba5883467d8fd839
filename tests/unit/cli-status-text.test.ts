// What `headroom status` and `headroom providers` print for providers shared across machines.
import { expect, test } from "vitest";
import { formatProviders, formatStatus } from "../../cli/status-text";
import type { ProviderConfigView } from "../../shared/types";
import { statusEntry } from "../support/status-entry";

const config = (providerId: string, change: Partial<ProviderConfigView> = {}): ProviderConfigView => ({
  providerId,
  limit: 3,
  cooldownMs: 350,
  responseTimeoutMs: 300_000,
  waitForResetMs: 120_000,
  overage: "allow",
  ...change,
});

const rowOf = (text: string, id: string) => text.split("\n").find((line) => line.startsWith(`${id} `));

test("status names a shared provider's hosts, and why its agents wait", () => {
  const text = formatStatus(
    {
      providers: [
        statusEntry("anthropic", { shared: true, hosts: 3, queued: 2, waitReason: "Redis is unreachable: admissions to shared provider anthropic wait until it is back, and releases are kept until then." }),
        statusEntry("ci", { shared: true, hosts: 1, autoReduced: true, autoReducedFrom: 4 }),
        statusEntry("openai"),
      ],
      redis: { connected: false, error: "connect ECONNREFUSED 127.0.0.1:6390" },
    },
    0,
  );
  expect(rowOf(text, "anthropic")).toMatch(/\bshared, 3 hosts$/);
  expect(rowOf(text, "ci")).toMatch(/\bshared, 1 host; auto-reduced from 4$/);
  expect(rowOf(text, "openai")).not.toMatch(/shared/);
  expect(text).toContain("\n! anthropic: Redis is unreachable: admissions to shared provider anthropic wait until it is back, and releases are kept until then.\n");
  expect(text).not.toMatch(/! (ci|openai):/);
  expect(text).toContain("! Redis unreachable (connect ECONNREFUSED 127.0.0.1:6390): shared providers wait until it answers.\n");
});

test("status says Redis is connected only on a host that has it configured", () => {
  const withRedis = formatStatus({ providers: [statusEntry("anthropic", { shared: true })], redis: { connected: true } }, 0);
  expect(rowOf(withRedis, "anthropic")).toMatch(/\bshared$/);
  expect(withRedis).toContain("\nRedis connected");
  expect(withRedis).not.toContain("unreachable");

  const local = formatStatus({ providers: [statusEntry("anthropic")] }, 0);
  expect(local).not.toMatch(/Redis|shared/);
});

test("providers lists whether each is shared and by how many hosts, and why agents wait", () => {
  const text = formatProviders(
    [config("anthropic", { shared: true }), config("ci", { shared: true }), config("openai", { shared: false })],
    [
      statusEntry("anthropic", { shared: true, hosts: 2, waitReason: "Redis is unreachable: admissions to shared provider anthropic wait until it is back, and releases are kept until then." }),
      statusEntry("ci", { shared: true }),
      statusEntry("openai"),
    ],
  );
  expect(text.split("\n")[0]).toMatch(/^PROVIDER\s+LIMIT\s+COOLDOWN\s+UPSTREAM\s+USAGE GATE\s+SHARED$/);
  expect(rowOf(text, "anthropic")).toMatch(/\s-\s+yes, 2 hosts$/);
  expect(rowOf(text, "ci")).toMatch(/\s-\s+yes$/);
  expect(rowOf(text, "openai")).toMatch(/\s-\s+-$/);
  expect(text).toContain("\n! anthropic: Redis is unreachable: admissions to shared provider anthropic wait until it is back, and releases are kept until then.\n");
});
