import { expect, test } from "vitest";
import { baseUrlLine, codexLine, runLine, setupLines } from "../../renderer/agent-lines";

const proxy = "http://127.0.0.1:7412";

test("an Anthropic provider gets ANTHROPIC_BASE_URL without /v1, whatever it is named", () => {
  expect(baseUrlLine("anthropic", "https://api.anthropic.com", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/anthropic");
  expect(baseUrlLine("work", "https://api.anthropic.com", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/work");
  expect(baseUrlLine("claude", "http://127.0.0.1:9000", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/claude");
  expect(setupLines("anthropic", "https://api.anthropic.com", proxy)[0]).toEqual({
    what: "base URL",
    tools: "Claude Code, Anthropic SDKs",
    text: "ANTHROPIC_BASE_URL=http://127.0.0.1:7412/anthropic",
  });
});

test("any other provider gets OPENAI_BASE_URL ending in /v1", () => {
  expect(baseUrlLine("openrouter", "https://openrouter.ai/api", `${proxy}/`)).toBe(
    "OPENAI_BASE_URL=http://127.0.0.1:7412/openrouter/v1",
  );
});

test("the run line pastes into a shell as is: npx, a real agent command, no placeholder", () => {
  expect(runLine("openai")).toBe("npx headroom run --provider openai -- codex");
  expect(runLine("work", "https://api.anthropic.com")).toBe("npx headroom run --provider work -- claude");
  expect(runLine("openai")).not.toMatch(/[<>|;&]/);
});

test("Codex gets its own provider entry (it ignores OPENAI_BASE_URL), and aider its flag", () => {
  const lines = setupLines("openai", "https://api.openai.com", proxy);
  expect(lines.map((l) => l.text)).toEqual([
    "OPENAI_BASE_URL=http://127.0.0.1:7412/openai/v1",
    `codex -c model_provider=headroom -c 'model_providers.headroom={name="Headroom",base_url="http://127.0.0.1:7412/openai/v1",wire_api="responses",env_key="OPENAI_API_KEY"}'`,
    "aider --openai-api-base http://127.0.0.1:7412/openai/v1",
  ]);
  expect(lines.some((l) => /OPENAI_BASE_URL=\S+ codex/.test(l.text))).toBe(false);
  expect(codexLine("http://127.0.0.1:1/x/v1")).toContain('base_url="http://127.0.0.1:1/x/v1"');
});

test("opencode's Anthropic base URL ends in /v1 and carries the lease header; Gemini CLI gets its base URL and auth type", () => {
  const opencode = setupLines("anthropic", "https://api.anthropic.com", proxy)[1]!;
  expect(JSON.parse(opencode.text)).toMatchObject({
    autoupdate: false,
    provider: { anthropic: { options: { baseURL: "http://127.0.0.1:7412/anthropic/v1", headers: { "x-headroom-lease": "{env:HEADROOM_LEASE_ID}" } } } },
  });
  expect(setupLines("gemini", "https://generativelanguage.googleapis.com", proxy).map((l) => l.text)).toEqual([
    "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:7412/gemini",
    '{"security":{"auth":{"selectedType":"gemini-api-key"}}}',
  ]);
});

test("Codex on a ChatGPT login: base_url at the provider's root and requires_openai_auth, no key", () => {
  expect(setupLines("chatgpt", "https://chatgpt.com/backend-api/codex", proxy).map((l) => l.text)).toEqual([
    `codex -c model_provider=headroom -c 'model_providers.headroom={name="Headroom",base_url="http://127.0.0.1:7412/chatgpt",wire_api="responses",requires_openai_auth=true}'`,
  ]);
});
