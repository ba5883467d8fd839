// The one error formatter over TypeBox's errors (shared/check.ts): a person reads which field,
// what is allowed and what came, whatever the shape of the schema.
import { describe, expect, test } from "vitest";
import { check, checkStored } from "../../shared/check";
import { AcquireBody, BreakerSettingsPatch, ProviderConfigPatch, SettingsFile } from "../../shared/schemas";

const message = (result: ReturnType<typeof check>) => (result.ok ? "accepted" : result.message);

describe("messages name the field, what is allowed and what came", () => {
  test.each([
    [ProviderConfigPatch, { usageGate: { url: "http://127.0.0.1:1/u", pollMs: 10 } }, "usageGate.pollMs must be an integer from 250 to 3600000 (got 10)"],
    [ProviderConfigPatch, { usageGate: { url: "http://x/u", headers: { ok: "a\r\nInjected: 1" } } }, 'usageGate.headers.ok must be a single-line string (got "a\\r\\nInjected: 1")'],
    [ProviderConfigPatch, { upstream: "http://user:pw@x" }, 'upstream must be an http:// or https:// URL without credentials, or null (got "http://user:pw@x")'],
    [AcquireBody, { providerId: "a", agentId: "" }, 'agentId must be a non-empty string of at most 200 characters without control characters (bidi controls and zero-width ones included) (got "")'],
    [AcquireBody, { providerId: "a", waiterId: "." }, 'waiterId must be 1 to 128 letters, digits or . _ : - (not . or ..) (got ".")'],
    [BreakerSettingsPatch, { treshold: 2 }, "treshold is not a field of body; the fields allowed are threshold, cooldownMs"],
    [BreakerSettingsPatch, {}, "body must be an object that sets threshold, cooldownMs or both (got {})"],
    [AcquireBody, { providerId: "a", extra: { deep: true } }, "extra is not a field of body; the fields allowed are providerId, agentId"],
    [SettingsFile, { schemaVersion: 1, providers: { Bad: { limit: 1 } } }, "providers.Bad must be an object keyed by provider ids"],
  ])("%#", (schema, value, expected) => {
    expect(message(check(schema, value))).toContain(expected);
  });

  test("a header name that is not a token is refused, not silently dropped", () => {
    expect(check(ProviderConfigPatch, { usageGate: { url: "http://x/u", headers: { "A B": "x" } } }).ok).toBe(false);
  });

  test("a key no schema names is refused at any depth, never dropped", () => {
    expect(message(check(ProviderConfigPatch, { usageGate: { url: "http://x/u", poll: 1 } }))).toContain(
      "usageGate.poll is not a field of usageGate; the fields allowed are url, pollMs, headers",
    );
  });

  test("a stored file is read leniently: unknown keys are dropped, a bad provider id is still refused", () => {
    expect(checkStored(SettingsFile, { schemaVersion: 1, later: 1, providers: { a: { limit: 2, later: true } } }, "settings")).toMatchObject({
      ok: true,
      value: { schemaVersion: 1, providers: { a: { limit: 2 } } },
    });
    expect(checkStored(SettingsFile, { schemaVersion: 1, providers: { Bad: { limit: 1 } } }, "settings").ok).toBe(false);
  });

  test("JSON deeper than 64 levels is refused before any walk, at any depth", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(check(AcquireBody, { providerId: "a", agentId: deep })).toEqual({
      ok: false,
      field: "body",
      message: "body must not nest deeper than 64 levels",
    });
  });
});
