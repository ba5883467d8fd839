// Claude Code and Codex (with an API key and on a ChatGPT login), installed from the npm registry and run offline with the setup lines
// the README shows, each sending one real request through the proxy to the fake provider: the
// request waits in Headroom's queue while the only slot is taken, then is answered. The
// settings come from renderer/agent-lines.ts, so the lines the window shows are the ones run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { baseUrlLine, codexArgs, codexLine, setupLines } from "../../renderer/agent-lines";
import { startProxyHarness } from "../support/proxy-harness";
import { ANSWER, gatedRun, modules, runCli, useAgents } from "./agent-harness";

const { harness, freshHome } = useAgents();

test("Claude Code with ANTHROPIC_BASE_URL=<proxy>/anthropic: one request, gated, answered", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "anthropic", fake: { eventDelayMs: 0 } }));
  const home = freshHome("headroom-claude-");
  const [name, value] = baseUrlLine("anthropic", "https://api.anthropic.com", h.proxyUrl).split("=") as [string, string];
  expect(name).toBe("ANTHROPIC_BASE_URL");
  const run = await gatedRun(h, () =>
    runCli([join(modules, "@anthropic-ai/claude-code/cli-wrapper.cjs"), "-p", "hi"], {
      HOME: home,
      [name]: value,
      ANTHROPIC_API_KEY: "sk-ant-offline-dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    }, home),
  );
  expect(run.stderr).toBe("");
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(run.code).toBe(0);
  expect(h.fake.stats.generations).toBe(1);
  expect(h.fake.stats.lastHeaders?.["x-api-key"]).toBe("sk-ant-offline-dummy");
});

test("Codex with a model_providers entry (wire_api responses): one HTTP request, gated, answered, no WebSocket", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "openai", fake: { eventDelayMs: 0 } }));
  const home = freshHome("headroom-codex-");
  const work = join(home, "work");
  mkdirSync(work);
  const run = await gatedRun(h, () =>
    runCli(
      [join(modules, "@openai/codex/bin/codex.js"), "exec", "--skip-git-repo-check", ...codexArgs(`${h.base}/v1`), "hi"],
      { HOME: home, CODEX_HOME: home, OPENAI_API_KEY: "sk-offline-dummy" },
      work,
    ),
  );
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(h.fake.stats.lastPath).toBe("/v1/responses");
  expect(h.fake.stats.lastHeaders?.authorization).toBe("Bearer sk-offline-dummy");
  // Every request Codex sent was the one POST: no WebSocket attempt on /v1/responses.
  expect(h.fake.stats).toMatchObject({ requests: 1, generations: 1 });
});

test("Codex on a ChatGPT login (requires_openai_auth, base_url at the provider's root): one POST /responses, gated, with its ChatGPT token", async () => {
  const h = harness(await startProxyHarness({ limit: 1, providerId: "chatgpt", fake: { eventDelayMs: 0 } }));
  const home = freshHome("headroom-codex-chatgpt-");
  const work = join(home, "work");
  mkdirSync(work);
  // A ChatGPT login as `codex login` leaves it: an id token (unsigned here, offline) and its account.
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { email: "dev@example.invalid", exp: 4102444800, "https://api.openai.com/auth": { chatgpt_plan_type: "plus", chatgpt_account_id: "acct-offline" } };
  const token = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.offline`;
  const tokens = { id_token: token, access_token: token, refresh_token: "rt-offline", account_id: "acct-offline" };
  writeFileSync(join(home, "auth.json"), JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: new Date().toISOString() }));
  const line = setupLines("chatgpt", "https://chatgpt.com/backend-api/codex", h.proxyUrl)[0]!;
  expect(line.text).toBe(codexLine(h.base, "chatgpt"));
  const run = await gatedRun(h, () =>
    runCli(
      [join(modules, "@openai/codex/bin/codex.js"), "exec", "--skip-git-repo-check", ...codexArgs(h.base, "chatgpt"), "hi"],
      { HOME: home, CODEX_HOME: home },
      work,
    ),
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(ANSWER);
  expect(h.fake.stats.paths.filter((p) => !p.startsWith("/models"))).toEqual(["/responses"]);
  expect(h.fake.stats.lastHeaders).toMatchObject({ authorization: `Bearer ${token}`, "chatgpt-account-id": "acct-offline" });
});
