// The real agent CLIs that `npm run test:agents` drives, pinned here. They are ~800 MB of
// native binaries, so they are not devDependencies (every `npm ci` would fetch them): this
// installs them once into a cache folder from the npm registry; the test only reads it.
//   node scripts/agent-clis.mjs install   (npm run agents:install)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const AGENT_CLIS = {
  "@anthropic-ai/claude-code": "2.1.332",
  "@openai/codex": "0.171.0",
  "@google/gemini-cli": "0.61.0",
  "opencode-ai": "1.18.33",
};

export function agentsDir(env = process.env) {
  if (env.HEADROOM_AGENTS_DIR) return env.HEADROOM_AGENTS_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "headroom-agents");
}

/** The packages missing or at another version than pinned (empty when ready). */
export function missingClis(dir = agentsDir()) {
  return Object.entries(AGENT_CLIS)
    .filter(([name, version]) => {
      const manifest = join(dir, "node_modules", name, "package.json");
      return !existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).version !== version;
    })
    .map(([name, version]) => `${name}@${version}`);
}

function install() {
  const dir = agentsDir();
  mkdirSync(dir, { recursive: true });
  const specs = Object.entries(AGENT_CLIS).map(([name, version]) => `${name}@${version}`);
  console.log(`Installing ${specs.join(", ")} into ${dir}`);
  // Claude Code's postinstall only copies its platform binary into place; the test runs the
  // platform package's binary itself, so no install script is needed or run.
  const npm = spawnSync("npm", ["install", "--prefix", dir, "--save-exact", "--ignore-scripts", "--no-audit", "--no-fund", ...specs], {
    stdio: "inherit",
  });
  if (npm.status !== 0) process.exit(npm.status ?? 1);
  const missing = missingClis(dir);
  if (missing.length > 0) throw new Error(`still missing after install: ${missing.join(", ")}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv[2] === "install") install();
  else {
    console.error("usage: node scripts/agent-clis.mjs install");
    process.exit(64);
  }
}
