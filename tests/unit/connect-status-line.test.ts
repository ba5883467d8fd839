// `connect claude` installs `headroom statusline` as Claude Code's status line (SPEC §10): an
// absolute command, the user's own status line kept after it with --then, and theirs given back
// exactly by disconnect. Real settings.json files in a temp HOME on disk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { ownStatusLine, statusLineCommand } from "../../electron/connect/claude-status-line";
import { Connector } from "../../electron/connect/connector";
import { headroomCommand, headroomScript } from "../../electron/connect/headroom-command";

const PROXY = "http://127.0.0.1:8788";
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(settings?: string, headroom?: string | null) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-statusline-"));
  made.push(root);
  const file = path.join(root, "home", ".claude", "settings.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (settings !== undefined) fs.writeFileSync(file, settings);
  const connector = (dataDir = "data") =>
    new Connector({ dataDir: path.join(root, dataDir), env: { PATH: "" }, home: path.join(root, "home"), cwd: root, proxyUrl: PROXY, ...(headroom === undefined ? {} : { headroomCommand: headroom }) });
  const read = () => fs.readFileSync(file, "utf8");
  const statusLine = () => (JSON.parse(read()) as { statusLine?: { command: string; padding?: number } }).statusLine;
  return { file, connector, read, statusLine, write: (text: string) => fs.writeFileSync(file, text) };
}

const THEIRS = `{
  "model": "opus",
  "statusLine": {
    "type": "command",
    "command": "~/.claude/line.sh --say 'it's me'",
    "padding": 2
  }
}
`;

test("with no status line: an absolute command to this checkout's bin/headroom.js under this Node, gone again on disconnect", () => {
  const h = home('{\n  "model": "opus"\n}\n');
  const connector = h.connector();
  connector.connect("claude", {});
  const command = h.statusLine()!.command;
  expect(command).toBe(`${process.execPath} ${headroomScript()} statusline --provider anthropic`);
  expect(path.isAbsolute(headroomScript()!)).toBe(true);
  expect(fs.existsSync(headroomScript()!)).toBe(true);
  expect(connector.claudeStatusLine()).toEqual({ installed: true, command });
  expect(connector.connect("claude", {}).changed).toBe(false);
  connector.disconnect("claude", {});
  expect(h.read()).toBe('{\n  "model": "opus"\n}\n');
  expect(connector.claudeStatusLine()).toEqual({ installed: false });
});

test("the user's status line is chained with --then (padding kept) and comes back byte for byte", () => {
  const h = home(THEIRS);
  const connector = h.connector();
  const answer = connector.connect("claude", { provider: "work" });
  expect(answer.files[0]!.diff).toContain("--then");
  const line = h.statusLine()!;
  expect(line.padding).toBe(2);
  expect(line.command).toBe(`${headroomCommand()} statusline --provider work --then '~/.claude/line.sh --say '\\''it'\\''s me'\\'''`);
  expect(ownStatusLine(line.command)).toEqual({ then: "~/.claude/line.sh --say 'it's me'" });
  // Connecting again, even to another provider, never chains Headroom's own line onto itself.
  connector.connect("claude", { provider: "anthropic" });
  expect(ownStatusLine(h.statusLine()!.command)).toEqual({ then: "~/.claude/line.sh --say 'it's me'" });
  connector.disconnect("claude", {});
  expect(h.read()).toBe(THEIRS);
});

test("a file edited after connect gets the user's own command back, not a deleted status line", () => {
  const h = home(THEIRS);
  const connector = h.connector();
  connector.connect("claude", {});
  h.write(h.read().replace('"opus"', '"sonnet"'));
  const answer = connector.disconnect("claude", {});
  expect(answer.notes?.join(" ")).toContain("removed only what Headroom added");
  expect(h.read()).toBe(THEIRS.replace('"opus"', '"sonnet"'));
});

test("with the data folder lost, disconnect still recovers the user's command from --then", () => {
  const h = home(THEIRS);
  h.connector("data-1").connect("claude", {});
  h.connector("data-2").disconnect("claude", {});
  expect(h.statusLine()).toEqual({ type: "command", command: "~/.claude/line.sh --say 'it's me'", padding: 2 });
  expect(h.read()).not.toContain("ANTHROPIC_BASE_URL");
});

test("a `headroom statusline` the user set by hand is rewritten, not chained; a packaged app without the script adds none", () => {
  const hand = home('{ "statusLine": { "type": "command", "command": "npx headroom statusline" } }\n');
  hand.connector().connect("claude", {});
  expect(hand.statusLine()!.command).toBe(statusLineCommand(headroomCommand()!, "anthropic"));

  const packaged = home("{}\n", null);
  packaged.connector().connect("claude", {});
  expect(packaged.statusLine()).toBeUndefined();
  expect(packaged.read()).toContain("ANTHROPIC_BASE_URL");
});

test("the script is found from the sources, the CLI bundle and its chunks alike; a path with spaces is quoted", () => {
  const script = headroomScript()!;
  const root = path.dirname(path.dirname(script));
  expect(headroomScript(path.join(root, "dist", "cli", "chunks", "x.js"))).toBe(script);
  expect(headroomScript(path.join(root, "electron", "connect", "x.ts"))).toBe(script);
  expect(headroomScript("/")).toBeUndefined();
  expect(statusLineCommand("'/opt/my node/node' /h/bin/headroom.js", "a b")).toBe("'/opt/my node/node' /h/bin/headroom.js statusline --provider 'a b'");
  expect(ownStatusLine("'/opt/my node/node' '/my dir/bin/headroom.js' statusline --provider x")).toEqual({});
  expect(ownStatusLine("/usr/bin/node ~/headroom-notes/line.sh")).toBeUndefined();
});

test("a settings.json with a comment, which Claude Code 2.1 does not load, is refused naming the file, the line and why", () => {
  const commented = '{\n  "model": "opus",\n  // mine\n  "env": {}\n}\n';
  const h = home(commented);
  let message = "";
  try {
    h.connector().connect("claude", {});
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toContain(`${h.file} does not parse as JSON at line 3`);
  expect(message).toContain("Claude Code reads it as plain JSON (no comments, no trailing commas)");
  expect(h.read()).toBe(commented);
});
