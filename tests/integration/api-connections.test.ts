// SPEC §10 over a real HTTP server: presets, the agents' connections, connect with a dry run,
// connect, disconnect, and bad input that touches no file.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ApiError } from "../../shared/api-client";
import { rawRequest, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let h: TestHost;
let home: string;
const settingsFile = () => path.join(home, ".claude", "settings.json");
const ORIGINAL = '{\n  // mine\n  "model": "opus"\n}\n';

beforeAll(async () => {
  home = tempDir("headroom-agent-home-");
  fs.mkdirSync(path.join(home, ".claude"));
  fs.writeFileSync(settingsFile(), ORIGINAL);
  h = await startTestHost({ proxyPort: 0, agentHome: { env: { PATH: "" }, home, cwd: home } });
});
afterAll(async () => {
  await h.stop();
  removeDir(h.dataDir);
  removeDir(home);
});

async function refused(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

test("GET /presets names the known providers with upstream, limit and agents", async () => {
  const { presets } = await h.client.invoke("presets");
  expect(presets.map((p) => p.id)).toEqual(["anthropic", "openai", "chatgpt", "gemini", "openrouter"]);
  expect(presets[0]).toMatchObject({ name: "Anthropic", upstream: "https://api.anthropic.com", limit: 4 });
  expect(presets[0]!.agents).toContain("Claude Code");
});

test("a dry run answers the changed lines and writes nothing, creates no provider", async () => {
  const answer = await h.client.invoke("connectAgent", { agent: "claude", dryRun: true });
  expect(answer).toMatchObject({ agent: "claude", changed: true, provider: "anthropic" });
  expect(answer.files).toEqual([{ path: settingsFile(), diff: expect.stringMatching(/^\+.*ANTHROPIC_BASE_URL/m) }]);
  expect(fs.readFileSync(settingsFile(), "utf8")).toBe(ORIGINAL);
  expect((await h.client.status()).providers).toEqual([]);
});

test("connect creates the provider from its preset and points Claude Code at the proxy; disconnect restores", async () => {
  const answer = await h.client.invoke("connectAgent", { agent: "claude" });
  expect(answer.changed).toBe(true);
  const provider = await h.client.provider("anthropic");
  expect(provider).toMatchObject({ limit: 4, upstream: "https://api.anthropic.com" });
  expect(JSON.parse(fs.readFileSync(settingsFile(), "utf8").replace("// mine", ""))).toEqual({
    model: "opus",
    env: { ANTHROPIC_BASE_URL: `${h.host.proxyUrl}/anthropic` },
  });
  const { connections } = await h.client.invoke("connections");
  expect(connections.find((c) => c.agent === "claude")).toMatchObject({ name: "Claude Code", installed: true, connected: true, provider: "anthropic", files: [settingsFile()] });
  expect((await h.client.invoke("connectAgent", { agent: "claude" })).changed).toBe(false);
  expect((await h.client.invoke("disconnectAgent", { agent: "claude" })).changed).toBe(true);
  expect(fs.readFileSync(settingsFile(), "utf8")).toBe(ORIGINAL);
});

test("an unknown agent is 404 naming the agents; an unknown provider 404; junk 400; no file touched", async () => {
  const unknown = await refused(h.client.invoke("connectAgent", { agent: "cursor" }));
  expect(unknown.status).toBe(404);
  expect(unknown.code).toBe("unknown_agent");
  expect(unknown.message).toContain("claude, codex, gemini, opencode");
  const provider = await refused(h.client.invoke("connectAgent", { agent: "claude", provider: "nowhere" }));
  expect(provider.status).toBe(404);
  expect(provider.message).toContain("anthropic");
  const junk = await rawRequest(h.url, {
    method: "POST",
    path: "/connections/claude",
    headers: { authorization: `Bearer ${h.host.token}`, "content-type": "application/json" },
    body: JSON.stringify({ dryRun: "please" }),
  });
  expect(junk.status).toBe(400);
  expect(junk.json().error.message).toContain("dryRun");
  const badLogin = await refused(h.client.invoke("connectAgent", { agent: "codex", login: "sso" as never }));
  expect(badLogin.status).toBe(400);
  expect(fs.readFileSync(settingsFile(), "utf8")).toBe(ORIGINAL);
});

test("a gateway already configured is 409 config_conflict; an unparsable file 422 naming it", async () => {
  const gateway = '{ "env": { "ANTHROPIC_BASE_URL": "https://gateway.example" } }\n';
  fs.writeFileSync(settingsFile(), gateway);
  const conflict = await refused(h.client.invoke("connectAgent", { agent: "claude" }));
  expect([conflict.status, conflict.code]).toEqual([409, "config_conflict"]);
  fs.writeFileSync(settingsFile(), "{ nope");
  const broken = await refused(h.client.invoke("connectAgent", { agent: "claude" }));
  expect([broken.status, broken.code]).toEqual([422, "config_unparsable"]);
  expect(broken.message).toContain(settingsFile());
  fs.writeFileSync(settingsFile(), ORIGINAL);
});
