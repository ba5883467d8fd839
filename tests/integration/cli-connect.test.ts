// `headroom connect`, `disconnect`, `env`, `doctor` and `providers add <preset>` as a user runs
// them: the real command against a real host, editing a temp HOME's files.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { cliEnv, closedPort, runCli } from "../support/cli-harness";
import { removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost;
let home: string;
let env: Record<string, string>;
const CODEX = '# mine\nmodel = "gpt-5-codex"\n\n[tui]\nnotifications = true\n';

beforeEach(async () => {
  t = await startTestHost({ proxyPort: 0 });
  home = tempDir("headroom-cli-home-");
  fs.mkdirSync(path.join(home, ".codex"));
  fs.writeFileSync(path.join(home, ".codex", "config.toml"), CODEX);
  env = cliEnv(t, { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") });
});
afterEach(async () => {
  await t.stop();
  removeDir(t.dataDir);
  removeDir(home);
});

test("providers add <preset> without a limit takes the preset's limit and upstream", async () => {
  const added = await runCli(["providers", "add", "anthropic"], env);
  expect(added).toMatchObject({ code: 0, stdout: "Added anthropic with limit 4, forwarding to https://api.anthropic.com.\n" });
  const custom = await runCli(["providers", "add", "work"], env);
  expect(custom.code).toBe(64);
  expect(custom.stderr).toContain("anthropic, openai, chatgpt, gemini, openrouter");
});

test("connect off a terminal refuses naming --yes; --dry-run shows the change; --yes applies; disconnect restores", async () => {
  const file = path.join(home, ".codex", "config.toml");
  const refused = await runCli(["connect", "codex"], env);
  expect(refused.code).toBe(64);
  expect(refused.stderr).toContain("--yes");
  expect(fs.readFileSync(file, "utf8")).toBe(CODEX);

  const dry = await runCli(["connect", "codex", "--dry-run"], env);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain(`+model_provider = "headroom"`);
  expect(dry.stdout).not.toMatch(/^ /m); // changed lines only, no context
  expect(fs.readFileSync(file, "utf8")).toBe(CODEX);

  const applied = await runCli(["connect", "codex", "--yes"], env);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toContain("Added provider openai");
  expect(applied.stdout).toContain("needs Headroom running");
  expect(fs.readFileSync(file, "utf8")).toContain(`base_url = "${t.host.proxyUrl}/openai/v1"`);
  expect((await runCli(["connect", "codex", "--yes"], env)).stdout).toContain("already connected");

  const list = await runCli(["connect", "--json"], env);
  const codex = JSON.parse(list.stdout).connections.find((c: { agent: string }) => c.agent === "codex");
  expect(codex).toMatchObject({ installed: true, connected: true, provider: "openai" });

  const envLines = await runCli(["env"], env);
  expect(envLines.stdout).toBe(`export OPENAI_BASE_URL='${t.host.proxyUrl}/openai/v1'\n`);

  const undone = await runCli(["disconnect", "codex", "--yes"], env);
  expect(undone.code).toBe(0);
  expect(fs.readFileSync(file, "utf8")).toBe(CODEX);
});

test("bad input: an unknown agent, a --provider naming nothing, an unparsable file (65), a read-only one (73)", async () => {
  const agent = await runCli(["connect", "cursor", "--yes"], env);
  expect(agent.code).toBe(64);
  expect(agent.stderr).toContain("claude, codex, gemini, opencode");
  const provider = await runCli(["connect", "claude", "--provider", "nowhere", "--yes"], env);
  expect(provider.code).toBe(64);
  expect(provider.stderr).toContain("nowhere");
  expect(fs.existsSync(path.join(home, ".claude", "settings.json"))).toBe(false);

  const file = path.join(home, ".codex", "config.toml");
  fs.writeFileSync(file, "model = [\n");
  const broken = await runCli(["connect", "codex", "--yes"], env);
  expect(broken.code).toBe(65);
  expect(broken.stderr).toContain(file);
  fs.writeFileSync(file, CODEX);
  fs.chmodSync(file, 0o444);
  const readOnly = await runCli(["connect", "codex", "--yes"], env);
  expect(readOnly.code).toBe(73);
  expect(readOnly.stderr).toContain(file);
  expect(fs.readFileSync(file, "utf8")).toBe(CODEX);
});

test("doctor: ok lines for the host and proxy, warn for an installed agent not connected, fail for an unreachable upstream", async () => {
  const port = await closedPort();
  await runCli(["providers", "add", "local", "2", "--upstream", `http://127.0.0.1:${port}`], env);
  const doctor = await runCli(["doctor"], env);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toMatch(/^ok {4}Headroom .* runs at/m);
  expect(doctor.stdout).toMatch(/^warn {2}Codex is installed but not connected: headroom connect codex$/m);
  expect(doctor.stdout).toMatch(/^fail {2}provider local: .* cannot be reached/m);
});

test("connect needs a running host: exit 69", async () => {
  const down = await runCli(["connect", "claude", "--yes"], { ...env, HEADROOM_URL: `http://127.0.0.1:${await closedPort()}` });
  expect(down.code).toBe(69);
});

test("connect claude installs the status line (absolute command, the user's kept with --then); doctor checks it; disconnect restores", async () => {
  const file = path.join(home, ".claude", "settings.json");
  const mine = '{\n  "statusLine": { "type": "command", "command": "echo mine" }\n}\n';
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, mine);
  expect((await runCli(["connect", "claude", "--yes"], env)).code).toBe(0);
  const { command } = JSON.parse(fs.readFileSync(file, "utf8")).statusLine;
  expect(command).toMatch(/^\/\S+ \/\S+\/bin\/headroom\.js statusline --provider anthropic --then 'echo mine'$/);
  const doctor = await runCli(["doctor"], env);
  expect(doctor.stdout).toMatch(/^ok {4}Claude Code's status line shows Headroom/m);
  expect((await runCli(["disconnect", "claude", "--yes"], env)).code).toBe(0);
  expect(fs.readFileSync(file, "utf8")).toBe(mine);
});
