// Tamed means readable (issue 32, item 2): a name that reaches a view, a log or a terminal
// carries no character that hides text or reorders it, nor any control character.
import { expect, test } from "vitest";
import { check } from "../../shared/check";
import { AcquireBody } from "../../shared/schemas";
import { tame } from "../../shared/tame";

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const INVISIBLE = [...range(0x200b, 0x200f), ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];

test.each(INVISIBLE.map((code) => [hex(code), code]))("%s in a folder, a command or an agent name becomes ?", (_name, code) => {
  const char = String.fromCharCode(code);
  expect(tame(`~/src/evil${char}gnp.js`)).toBe("~/src/evil?gnp.js");
  expect(tame(`${char}claude${char}`)).toBe("?claude?");
});

test("the neighbours of each range, and readable Unicode, stay as they are", () => {
  for (const code of [0x200a, 0x2010, 0x2029, 0x202f, 0x2065, 0x206a]) {
    const char = String.fromCharCode(code);
    expect(tame(`a${char}b`), hex(code)).toBe(`a${char}b`);
  }
  expect(tame("claude — ünïcode · ~/src/api 日本")).toBe("claude — ünïcode · ~/src/api 日本");
});

test("control characters and escapes are still tamed beside the invisible ones", () => {
  expect(tame("a\u001b[31mb\u202ec\u0085d")).toBe("a?b?c?d");
});

test.each(INVISIBLE.map((code) => [hex(code), code]))("an agent name carrying %s is refused, naming the character", (_name, code) => {
  const checked = check(AcquireBody, { providerId: "anthropic", agentId: `evil${String.fromCharCode(code)}gnp` });
  expect(checked.ok).toBe(false);
  if (checked.ok) return;
  expect(checked.field).toBe("agentId");
  expect(checked.message).toContain(`\\u${code.toString(16).padStart(4, "0")}`);
  expect([...checked.message].some((char) => INVISIBLE.includes(char.charCodeAt(0)))).toBe(false);
});
