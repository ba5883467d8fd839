import { expect, test } from "vitest";
import { baseUrlLine, runLine } from "../../renderer/agent-lines";

const proxy = "http://127.0.0.1:7412";

test("an Anthropic provider gets ANTHROPIC_BASE_URL without /v1, whatever it is named", () => {
  expect(baseUrlLine("anthropic", "https://api.anthropic.com", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/anthropic");
  expect(baseUrlLine("work", "https://api.anthropic.com", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/work");
  expect(baseUrlLine("claude", "http://127.0.0.1:9000", proxy)).toBe("ANTHROPIC_BASE_URL=http://127.0.0.1:7412/claude");
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
