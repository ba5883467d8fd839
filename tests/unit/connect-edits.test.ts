// Each agent's edit on real-world configuration files, in a temp HOME on disk: what changes,
// what stays byte for byte, and what a refusal says.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { Connector } from "../../electron/connect/connector";
import { ConnectError } from "../../electron/connect/connect-error";

const PROXY = "http://127.0.0.1:8788";
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(env: NodeJS.ProcessEnv = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-connect-"));
  made.push(root);
  const dir = path.join(root, "home");
  fs.mkdirSync(dir);
  const connector = new Connector({ dataDir: path.join(root, "data"), env: { PATH: "", ...env }, home: dir, cwd: dir, proxyUrl: PROXY });
  const write = (rel: string, text: string) => {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  const read = (rel: string) => fs.readFileSync(path.join(dir, rel), "utf8");
  return { root, dir, connector, write, read };
}

function refusal(run: () => unknown): ConnectError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConnectError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const CLAUDE_SETTINGS = `{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "opus",
    "permissions": { "allow": ["Bash(ls)"] },
    "env": {
        "ANTHROPIC_API_KEY": "sk-ant-secret"
    }
}
`;

describe("Claude Code", () => {
  test("adds env.ANTHROPIC_BASE_URL keeping the other keys, order and the file's 4-space indentation", () => {
    const h = home();
    h.write(".claude/settings.json", CLAUDE_SETTINGS);
    const answer = h.connector.connect("claude", {});
    const after = h.read(".claude/settings.json");
    expect(after).toContain('"$schema"');
    expect(after).toContain(`        "ANTHROPIC_BASE_URL": "${PROXY}/anthropic"`);
    expect(after.indexOf('"model"')).toBeLessThan(after.indexOf('"permissions"'));
    expect(answer.files[0]!.diff).not.toContain("sk-ant-secret");
    expect(answer.files[0]!.diff.split("\n").every((line) => /^[+-]/.test(line))).toBe(true);
  });

  test("connect twice changes nothing; disconnect restores the file byte for byte", () => {
    const h = home();
    h.write(".claude/settings.json", CLAUDE_SETTINGS);
    h.connector.connect("claude", {});
    const once = h.read(".claude/settings.json");
    expect(h.connector.connect("claude", {}).changed).toBe(false);
    expect(h.read(".claude/settings.json")).toBe(once);
    h.connector.disconnect("claude", {});
    expect(h.read(".claude/settings.json")).toBe(CLAUDE_SETTINGS);
  });

  test("a file edited after connect loses only Headroom's key on disconnect", () => {
    const h = home();
    h.write(".claude/settings.json", CLAUDE_SETTINGS);
    h.connector.connect("claude", {});
    const edited = h.read(".claude/settings.json").replace('"opus"', '"sonnet"');
    h.write(".claude/settings.json", edited);
    const answer = h.connector.disconnect("claude", {});
    const after = h.read(".claude/settings.json");
    expect(after).toContain('"sonnet"');
    expect(after).not.toContain("ANTHROPIC_BASE_URL");
    expect(after).toContain("sk-ant-secret");
    expect(answer.notes?.join(" ")).toContain("removed only what Headroom added");
  });

  test("CRLF stays CRLF; CLAUDE_CONFIG_DIR is honoured", () => {
    const h = home();
    const dir = path.join(h.root, "claude-config");
    const connector = new Connector({ dataDir: path.join(h.root, "data"), env: { CLAUDE_CONFIG_DIR: dir }, home: h.dir, cwd: h.dir, proxyUrl: PROXY });
    fs.mkdirSync(dir);
    const original = '{\r\n  "model": "opus"\r\n}\r\n';
    fs.writeFileSync(path.join(dir, "settings.json"), original);
    connector.connect("claude", {});
    const after = fs.readFileSync(path.join(dir, "settings.json"), "utf8");
    expect(after.replace(/\r\n/g, "")).not.toContain("\n");
    expect(after).toContain("ANTHROPIC_BASE_URL");
    connector.disconnect("claude", {});
    expect(fs.readFileSync(path.join(dir, "settings.json"), "utf8")).toBe(original);
  });

  test("an empty file and a missing one are created as JSON; disconnect deletes what connect created", () => {
    const h = home();
    h.write(".claude/settings.json", "");
    h.connector.connect("claude", {});
    expect(JSON.parse(h.read(".claude/settings.json"))).toMatchObject({ env: { ANTHROPIC_BASE_URL: `${PROXY}/anthropic` } });
    h.connector.disconnect("claude", {});
    expect(h.read(".claude/settings.json")).toBe("");

    const fresh = home();
    fresh.connector.connect("claude", {});
    const file = path.join(fresh.dir, ".claude/settings.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fresh.connector.disconnect("claude", {});
    expect(fs.existsSync(file)).toBe(false);
  });

  test("a file that does not parse is refused naming it and the line; nothing is written", () => {
    const h = home();
    const broken = '{\n  "model": "opus",\n  "env": {\n}\n';
    const file = h.write(".claude/settings.json", broken);
    const error = refusal(() => h.connector.connect("claude", {}));
    expect(error.code).toBe("config_unparsable");
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/line \d/);
    expect(h.read(".claude/settings.json")).toBe(broken);
  });

  test("a gateway already in ANTHROPIC_BASE_URL is refused unless replace", () => {
    const h = home();
    h.write(".claude/settings.json", '{ "env": { "ANTHROPIC_BASE_URL": "https://gateway.example" } }');
    const error = refusal(() => h.connector.connect("claude", {}));
    expect(error.code).toBe("config_conflict");
    expect(error.message).toContain("https://gateway.example");
    expect(error.message).toContain("--replace");
    h.connector.connect("claude", { replace: true });
    expect(h.read(".claude/settings.json")).toContain(`${PROXY}/anthropic`);
  });

  test("a symlinked settings.json is written at its target and stays a link, keeping the mode", () => {
    const h = home();
    const real = path.join(h.root, "dotfiles-settings.json");
    fs.writeFileSync(real, '{ "model": "opus" }\n', { mode: 0o640 });
    fs.chmodSync(real, 0o640);
    fs.mkdirSync(path.join(h.dir, ".claude"));
    fs.symlinkSync(real, path.join(h.dir, ".claude/settings.json"));
    h.connector.connect("claude", {});
    expect(fs.lstatSync(path.join(h.dir, ".claude/settings.json")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toContain("ANTHROPIC_BASE_URL");
    expect(fs.statSync(real).mode & 0o777).toBe(0o640);
    h.connector.disconnect("claude", {});
    expect(fs.readFileSync(real, "utf8")).toBe('{ "model": "opus" }\n');
  });

  test("a read-only file is refused naming it and what to do; it is left as it was", () => {
    const h = home();
    const file = h.write(".claude/settings.json", CLAUDE_SETTINGS);
    fs.chmodSync(file, 0o444);
    const error = refusal(() => h.connector.connect("claude", {}));
    expect(error.code).toBe("config_unwritable");
    expect(error.message).toContain(file);
    expect(error.message).toContain("chmod u+w");
    expect(h.read(".claude/settings.json")).toBe(CLAUDE_SETTINGS);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["settings.json"]);
  });

  test("dry run answers the diff and writes nothing", () => {
    const h = home();
    h.write(".claude/settings.json", CLAUDE_SETTINGS);
    const answer = h.connector.connect("claude", { dryRun: true });
    expect(answer.files[0]!.diff).toContain(`+        "ANTHROPIC_BASE_URL": "${PROXY}/anthropic"`);
    expect(h.read(".claude/settings.json")).toBe(CLAUDE_SETTINGS);
  });
});

const CODEX_CONFIG = `# Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"

# sandbox
[sandbox_workspace_write]
network_access = true

[profiles.work]
model_provider = "azure"

[model_providers.azure]
name = "Azure"
base_url = "https://example.openai.azure.com/openai"
`;

describe("Codex", () => {
  test("adds model_provider before any table and the headroom entry; API key without auth.json", () => {
    const h = home();
    h.write(".codex/config.toml", CODEX_CONFIG);
    const answer = h.connector.connect("codex", {});
    const after = h.read(".codex/config.toml");
    expect(after.startsWith(`# Codex settings\nmodel = "gpt-5-codex"\napproval_policy = "on-request"\nmodel_provider = "headroom"\n`)).toBe(true);
    expect(after).toContain(`[model_providers.headroom]\nname = "Headroom"\nbase_url = "${PROXY}/openai/v1"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\nenv_http_headers = { "x-headroom-lease" = "HEADROOM_LEASE_ID" }\n`);
    expect(answer.notes?.join(" ")).toContain("profile work");
    expect(answer.files[0]!.diff).toContain("env_key = ***");
    expect(h.connector.connect("codex", {}).changed).toBe(false);
    h.connector.disconnect("codex", {});
    expect(h.read(".codex/config.toml")).toBe(CODEX_CONFIG);
  });

  test("a ChatGPT login in auth.json goes to the chatgpt provider with requires_openai_auth; CODEX_HOME honoured", () => {
    const h = home();
    const codexHome = path.join(h.root, "codex-home");
    fs.mkdirSync(codexHome);
    fs.writeFileSync(path.join(codexHome, "auth.json"), JSON.stringify({ tokens: { id_token: "x" } }));
    const connector = new Connector({ dataDir: path.join(h.root, "data"), env: { CODEX_HOME: codexHome }, home: h.dir, cwd: h.dir, proxyUrl: PROXY });
    const answer = connector.connect("codex", {});
    const after = fs.readFileSync(path.join(codexHome, "config.toml"), "utf8");
    expect(answer.provider).toBe("chatgpt");
    expect(after).toContain(`base_url = "${PROXY}/chatgpt"`);
    expect(after).toContain("requires_openai_auth = true");
    expect(connector.connect("codex", { login: "api-key" }).provider).toBe("openai");
  });

  test("another model_provider is a conflict; unparsable TOML names the line; CRLF kept", () => {
    const h = home();
    h.write(".codex/config.toml", 'model_provider = "azure"\n[model_providers.azure]\nbase_url = "https://azure.example"\n');
    expect(refusal(() => h.connector.connect("codex", {})).code).toBe("config_conflict");
    const broken = home();
    const file = broken.write(".codex/config.toml", 'model = "x"\nsandbox = [\n');
    const error = refusal(() => broken.connector.connect("codex", {}));
    expect(error.code).toBe("config_unparsable");
    expect(error.message).toContain(`${file} does not parse as TOML at line`);
    const crlf = home();
    crlf.write(".codex/config.toml", 'model = "x"\r\n\r\n[tui]\r\nnotifications = true\r\n');
    crlf.connector.connect("codex", {});
    expect(crlf.read(".codex/config.toml").replace(/\r\n/g, "")).not.toContain("\n");
    crlf.connector.disconnect("codex", {});
    expect(crlf.read(".codex/config.toml")).toBe('model = "x"\r\n\r\n[tui]\r\nnotifications = true\r\n');
  });
});

describe("Gemini CLI", () => {
  test("sets GOOGLE_GEMINI_BASE_URL in ~/.gemini/.env and the API-key auth type; says what bypasses it", () => {
    const h = home({ GOOGLE_GEMINI_BASE_URL: "https://elsewhere.example" });
    h.write(".gemini/.env", "# keys\nGEMINI_API_KEY=abc123\n");
    const project = path.join(h.dir, "work", "app");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(h.dir, "work", ".env"), "X=1\n");
    const connector = new Connector({ dataDir: path.join(h.root, "data"), env: { GOOGLE_GEMINI_BASE_URL: "https://elsewhere.example" }, home: h.dir, cwd: project, proxyUrl: PROXY });
    const answer = connector.connect("gemini", {});
    expect(h.read(".gemini/.env")).toBe(`# keys\nGEMINI_API_KEY=abc123\nGOOGLE_GEMINI_BASE_URL=${PROXY}/gemini\n`);
    expect(JSON.parse(h.read(".gemini/settings.json"))).toEqual({ security: { auth: { selectedType: "gemini-api-key" } } });
    const notes = answer.notes!.join(" ");
    expect(notes).toContain(path.join(h.dir, "work", ".env"));
    expect(notes).toContain("exported");
    connector.disconnect("gemini", {});
    expect(h.read(".gemini/.env")).toBe("# keys\nGEMINI_API_KEY=abc123\n");
    expect(fs.existsSync(path.join(h.dir, ".gemini/settings.json"))).toBe(false);
  });

  test("a Google login is left alone and named", () => {
    const h = home();
    h.write(".gemini/settings.json", '{ "security": { "auth": { "selectedType": "oauth-personal" } } }\n');
    const answer = h.connector.connect("gemini", {});
    expect(h.read(".gemini/settings.json")).toContain("oauth-personal");
    expect(answer.notes!.join(" ")).toContain("signs in with Google");
  });
});

describe("opencode", () => {
  test("edits the existing opencode.jsonc under XDG_CONFIG_HOME, comments kept; --provider openai sets provider.openai", () => {
    const h = home();
    const xdg = path.join(h.root, "xdg");
    const file = path.join(xdg, "opencode", "opencode.jsonc");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original = '{\n\t// theme\n\t"theme": "dark",\n}\n';
    fs.writeFileSync(file, original);
    const connector = new Connector({ dataDir: path.join(h.root, "data"), env: { XDG_CONFIG_HOME: xdg }, home: h.dir, cwd: h.dir, proxyUrl: PROXY });
    connector.connect("opencode", {});
    const after = fs.readFileSync(file, "utf8");
    expect(after).toContain("// theme");
    expect(after).toContain(`\t\t\t\t"baseURL": "${PROXY}/anthropic/v1"`);
    expect(connector.list().find((entry) => entry.agent === "opencode")).toMatchObject({ installed: true, connected: true, provider: "anthropic" });
    connector.disconnect("opencode", {});
    expect(fs.readFileSync(file, "utf8")).toBe(original);
    connector.connect("opencode", { provider: "openai" });
    expect(fs.readFileSync(file, "utf8")).toContain(`"openai"`);
  });
});

test("an unknown agent is refused naming the agents Headroom knows", () => {
  const error = refusal(() => home().connector.connect("cursor", {}));
  expect(error.code).toBe("unknown_agent");
  expect(error.message).toContain("claude, codex, gemini, opencode");
});
