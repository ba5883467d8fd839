// Each real agent as tests/agents/connect.test.ts drives it: a fresh home, or one whose
// configuration is full of other keys and comments and points the agent at an old endpoint; the
// environment its user has anyway (an API key, no base URL); and its headless one-shot prompt.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { modules, runCli, runProgram, type Run } from "./agent-harness";

interface Setup {
  env: Record<string, string>;
  /** The configuration files, relative to HOME, that disconnect must give back byte for byte. */
  files: string[];
}

export interface AgentCase {
  agent: "claude" | "codex" | "gemini" | "opencode";
  title: string;
  provider: string;
  connectArgs?: string[];
  setup(home: string, old: string | undefined): Setup;
  setupExisting(home: string, old: string | undefined): Setup;
  run(env: Record<string, string>, cwd: string): Promise<Run>;
}

function put(home: string, rel: string, text: string): void {
  mkdirSync(dirname(join(home, rel)), { recursive: true });
  writeFileSync(join(home, rel), text);
}

// Plain JSON: Claude Code 2.1 does not load a settings.json with a comment at all.
const CLAUDE_SETTINGS = (old: string | undefined) => `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run test:*)"],
    "deny": ["Read(./.env)"]
  },
  "env": {
    "ANTHROPIC_BASE_URL": "${old}",
    "DISABLE_AUTOUPDATER": "1"
  },
  "statusLine": { "type": "command", "command": "echo 'my line'", "padding": 0 },
  "includeCoAuthoredBy": false
}
`;

const claudeEnv = (home: string) => ({ HOME: home, ANTHROPIC_API_KEY: "sk-ant-offline-dummy", DISABLE_TELEMETRY: "1", DISABLE_ERROR_REPORTING: "1" });

const CODEX_CONFIG = (oldBase: string, auth: string) => `# my codex config
model = "gpt-5-codex"
model_provider = "old"   # the team gateway
approval_policy = "never"

[model_providers.old]
name = "Old gateway"
base_url = "${oldBase}"
wire_api = "responses"
${auth}

[tui]
notifications = true

[profiles.fast]
model = "gpt-5-mini"
`;

/** A ChatGPT login as `codex login` leaves it: an id token (unsigned here, offline) and its account. */
function chatgptAuth(home: string): void {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { email: "dev@example.invalid", exp: 4102444800, "https://api.openai.com/auth": { chatgpt_plan_type: "plus", chatgpt_account_id: "acct-offline" } };
  const token = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.offline`;
  const tokens = { id_token: token, access_token: token, refresh_token: "rt-offline", account_id: "acct-offline" };
  put(home, ".codex/auth.json", JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: new Date().toISOString() }));
}

const codexRun = (env: Record<string, string>, cwd: string) => runCli([join(modules, "@openai/codex/bin/codex.js"), "exec", "--skip-git-repo-check", "hi"], env, cwd);

const GEMINI_ENV = (old: string | undefined) => `# my keys
GEMINI_API_KEY=offline-dummy
GOOGLE_GEMINI_BASE_URL=${old}
export GEMINI_MODEL=gemini-2.5-flash
`;

const GEMINI_SETTINGS = `{
  // mine
  "general": { "vimMode": true },
  "security": {
    "auth": { "selectedType": "gemini-api-key" }
  },
  "ui": { "theme": "GitHub" }
}
`;

const OPENCODE_CONFIG = (old: string | undefined) => `{
  // my opencode
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "theme": "tokyonight",
  "provider": {
    "anthropic": {
      "options": {
        "baseURL": "${old}/v1", // the team gateway
        "timeout": 600000
      }
    }
  },
  "share": "disabled",
}
`;

const opencodeEnv = (home: string) => ({ HOME: home, ANTHROPIC_API_KEY: "sk-ant-offline-dummy", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" });

export const AGENT_CONFIGS: AgentCase[] = [
  {
    agent: "claude",
    title: "Claude Code (claude -p)",
    provider: "anthropic",
    setup: (home) => ({ env: claudeEnv(home), files: [".claude/settings.json"] }),
    setupExisting: (home, old) => {
      put(home, ".claude/settings.json", CLAUDE_SETTINGS(old));
      return { env: claudeEnv(home), files: [".claude/settings.json"] };
    },
    run: (env, cwd) => runCli([join(modules, "@anthropic-ai/claude-code/cli-wrapper.cjs"), "-p", "hi"], env, cwd),
  },
  {
    agent: "codex",
    title: "Codex with an API key (codex exec)",
    provider: "openai",
    setup: (home) => ({ env: { HOME: home, OPENAI_API_KEY: "sk-offline-dummy" }, files: [".codex/config.toml"] }),
    setupExisting: (home, old) => {
      put(home, ".codex/config.toml", CODEX_CONFIG(`${old}/v1`, `env_key = "OPENAI_API_KEY"`));
      return { env: { HOME: home, OPENAI_API_KEY: "sk-offline-dummy" }, files: [".codex/config.toml"] };
    },
    run: codexRun,
  },
  {
    agent: "codex",
    title: "Codex on a ChatGPT login (codex exec)",
    provider: "chatgpt",
    setup: (home) => {
      chatgptAuth(home);
      return { env: { HOME: home }, files: [".codex/config.toml"] };
    },
    setupExisting: (home, old) => {
      chatgptAuth(home);
      put(home, ".codex/config.toml", CODEX_CONFIG(`${old}`, "requires_openai_auth = true"));
      return { env: { HOME: home }, files: [".codex/config.toml"] };
    },
    run: codexRun,
  },
  {
    agent: "gemini",
    title: "Gemini CLI with an API key (gemini -p)",
    provider: "gemini",
    setup: (home) => ({ env: { HOME: home, GEMINI_API_KEY: "offline-dummy", GEMINI_CLI_TRUST_WORKSPACE: "true" }, files: [".gemini/.env", ".gemini/settings.json"] }),
    setupExisting: (home, old) => {
      put(home, ".gemini/.env", GEMINI_ENV(old));
      put(home, ".gemini/settings.json", GEMINI_SETTINGS);
      // Gemini CLI reads ~/.gemini/.env only in a folder it trusts: this user trusts their folders.
      return { env: { HOME: home, GEMINI_CLI_TRUST_WORKSPACE: "true" }, files: [".gemini/.env", ".gemini/settings.json"] };
    },
    // An explicit model: without one Gemini CLI first asks a router model for JSON the fake does not give.
    run: (env, cwd) => runCli([join(modules, "@google/gemini-cli/bundle/gemini.js"), "-m", "gemini-2.5-flash", "-p", "hi"], env, cwd),
  },
  {
    agent: "opencode",
    title: "opencode (opencode run)",
    provider: "anthropic",
    setup: (home) => ({ env: opencodeEnv(home), files: [".config/opencode/opencode.json"] }),
    setupExisting: (home, old) => {
      put(home, ".config/opencode/opencode.jsonc", OPENCODE_CONFIG(old));
      return { env: opencodeEnv(home), files: [".config/opencode/opencode.jsonc", ".config/opencode/opencode.json"] };
    },
    // The platform binary itself: the package's launcher is put in place by a postinstall we skip.
    run: (env, cwd) => runProgram(join(modules, "opencode-linux-x64/bin/opencode"), ["run", "-m", "anthropic/claude-sonnet-4-5", "hi"], env, cwd),
  },
];
