// `headroom run` scopes base URLs at the proxy to its lease, in variables and in flags (SPEC §6).
import { expect, test } from "vitest";
import { scopeFlags, scopeToLease, withLeaseHeader } from "../../cli/run/lease-scope";

const proxy = "http://127.0.0.1:7412";
const scope = (value: string) => scopeToLease(value, proxy, "openai", "L1");

test("a base URL at this proxy's provider moves under the lease, keeping its suffix; others are left alone", () => {
  expect(scope("http://127.0.0.1:7412/openai/v1")).toBe("http://127.0.0.1:7412/openai/_lease/L1/v1");
  expect(scope("http://localhost:7412/openai")).toBe("http://localhost:7412/openai/_lease/L1");
  expect(scope("http://127.0.0.1:7412/openai/_lease/L0/v1")).toBeUndefined();
  expect(scope("http://127.0.0.1:7412/openaix/v1")).toBeUndefined();
  expect(scope("http://127.0.0.1:7413/openai/v1")).toBeUndefined();
  expect(scope("https://api.openai.com/v1")).toBeUndefined();
});

test("--openai-api-base and --anthropic-api-base are rewritten in both forms; operands after -- and the command name are not", () => {
  const v1 = `${proxy}/openai/v1`;
  const scoped = `${proxy}/openai/_lease/L1/v1`;
  expect(scopeFlags(["aider", "--openai-api-base", v1, "--model", "x"], scope)).toEqual(["aider", "--openai-api-base", scoped, "--model", "x"]);
  expect(scopeFlags(["aider", `--openai-api-base=${v1}`], scope)).toEqual(["aider", `--openai-api-base=${scoped}`]);
  expect(scopeFlags(["aider", "--anthropic-api-base", `${proxy}/openai`], scope)).toEqual(["aider", "--anthropic-api-base", `${proxy}/openai/_lease/L1`]);
  const untouched: [string, ...string[]] = ["aider", "--", "--openai-api-base", v1];
  expect(scopeFlags(untouched, scope)).toBe(untouched);
  const elsewhere: [string, ...string[]] = ["aider", "--openai-api-base", "https://api.openai.com/v1", "--openai-api-base"];
  expect(scopeFlags(elsewhere, scope)).toBe(elsewhere);
});

test("ANTHROPIC_CUSTOM_HEADERS gains the lease line after the user's own; an outer run's lease line gives way", () => {
  expect(withLeaseHeader(undefined, "L1")).toBe("x-headroom-lease: L1");
  expect(withLeaseHeader("", "L1")).toBe("x-headroom-lease: L1");
  expect(withLeaseHeader("X-Team: blue\r\nx-trace: 7\n", "L1")).toBe("X-Team: blue\nx-trace: 7\nx-headroom-lease: L1");
  expect(withLeaseHeader("X-Headroom-Lease: outer\nx-team: blue", "inner")).toBe("x-team: blue\nx-headroom-lease: inner");
});
