// What the real agents did that our idea of them did not foresee (tests/agents/connect.test.ts
// found each): the edits that make `connect` work with them and `disconnect` still exact.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { Connector } from "../../electron/connect/connector";

const PROXY = "http://127.0.0.1:8788";
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(env: NodeJS.ProcessEnv = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-findings-"));
  made.push(root);
  const dir = path.join(root, "home");
  fs.mkdirSync(dir);
  const connector = new Connector({ dataDir: path.join(root, "data"), env: { PATH: "", ...env }, home: dir, cwd: dir, proxyUrl: PROXY, headroomCommand: null });
  return { dir, connector };
}

test("opencode: a config file Headroom creates already has the $schema opencode 1.18 would insert, so opencode leaves it alone and disconnect deletes it", () => {
  const h = home();
  h.connector.connect("opencode", {});
  const file = path.join(h.dir, ".config/opencode/opencode.json");
  const written = fs.readFileSync(file, "utf8");
  expect(JSON.parse(written)).toEqual({ $schema: "https://opencode.ai/config.json", provider: { anthropic: { options: { baseURL: `${PROXY}/anthropic/v1` } } } });
  expect(written.indexOf("$schema")).toBeLessThan(written.indexOf("provider"));
  h.connector.disconnect("opencode", {});
  expect(fs.existsSync(file)).toBe(false);
});

test("Gemini CLI: connect and the connection's warnings say it reads ~/.gemini/.env only in folders it trusts, unless trust is given or folder trust is off", () => {
  const untrusted = home();
  const note = untrusted.connector.connect("gemini", {}).notes?.join("\n") ?? "";
  expect(note).toContain("only in folders it trusts");
  expect(untrusted.connector.list().find((c) => c.agent === "gemini")?.warnings?.join("\n")).toContain("in an untrusted folder it bypasses Headroom");

  const trustedByEnv = home({ GEMINI_CLI_TRUST_WORKSPACE: "true" });
  expect(trustedByEnv.connector.connect("gemini", {}).notes?.join("\n")).not.toContain("trusts");

  const trustOff = home();
  fs.mkdirSync(path.join(trustOff.dir, ".gemini"));
  fs.writeFileSync(path.join(trustOff.dir, ".gemini/settings.json"), '{ "security": { "folderTrust": { "enabled": false } } }\n');
  expect(trustOff.connector.connect("gemini", {}).notes?.join("\n")).not.toContain("trusts");
});
