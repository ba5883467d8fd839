// The route's model from a gated body (SPEC §6): every body is scanned, not parsed whole (issue 32
// item 4 for big bodies, issue 27 item 6 for the rest), and must name the model JSON.parse would.
import { expect, test } from "vitest";
import { modelOf } from "../../electron/proxy/body-model";

const PAD = "y".repeat(1024 * 1024 + 10);
const big = (json: string) => Buffer.from(json.replace("PAD", PAD));
const whole = (buffer: Buffer) => {
  try {
    const model = (JSON.parse(buffer.toString("utf8")) as { model?: unknown }).model;
    return typeof model === "string" && model.length > 0 && model.length <= 200 ? model : "unknown";
  } catch {
    return "unknown";
  }
};

const CASES: [string, string][] = [
  ['{"model":"claude-sonnet","messages":[{"role":"user","content":"PAD"}]}', "claude-sonnet"],
  ['{ "messages" : [ { "content" : "PAD \\" \\\\", "n": [1, {"model": "nested"}] } ] , "model" : "last-key" }', "last-key"],
  ['{"messages":["PAD"],"model":"first","model":"second"}', "second"],
  ['{"mod\\u0065l":"escaped-key","x":"PAD"}', "escaped-key"],
  ['{"model":"caf\\u00e9 \\"q\\"","x":"PAD"}', 'café "q"'],
  ['{"x":"PAD","stream":true,"max_tokens":16,"t":null,"model":"after-primitives"}', "after-primitives"],
  ['{"model":42,"x":"PAD"}', "unknown"],
  ['{"model":"","x":"PAD"}', "unknown"],
  [`{"model":"${"m".repeat(201)}","x":"PAD"}`, "unknown"],
  ['{"x":"PAD"}', "unknown"],
  ['["PAD"]', "unknown"],
  ['{"x":"PAD", "model": "cut', "unknown"],
  ['{"x":{"model":"inner"},"y":"PAD"}', "unknown"],
];

test.each(CASES)("%# a big body names the model JSON.parse would", (json, model) => {
  const body = big(json);
  expect(body.length).toBeGreaterThan(1024 * 1024);
  expect(modelOf(body)).toBe(model);
  expect(whole(body)).toBe(model);
});

test.each(CASES)("%# a small body names the model JSON.parse would", (json, model) => {
  const body = Buffer.from(json.replace("PAD", "pad"));
  expect(modelOf(body)).toBe(model);
  expect(whole(body)).toBe(model);
});

test("keys are told apart without decoding the plain ones", () => {
  expect(modelOf(Buffer.from('{"models":"no","modelx":"no","mode":"no","model":"yes"}'))).toBe("yes");
  expect(modelOf(Buffer.from('{"\u006dodel":"escaped","x":1}'))).toBe("escaped");
  expect(modelOf(Buffer.from('{"Model":"case matters"}'))).toBe("unknown");
  expect(modelOf(Buffer.from("not json"))).toBe("unknown");
});
