// `npm run test:agents`: the real Claude Code, Codex, Gemini CLI and opencode through the proxy
// (not part of `npm test`; they need `npm run agents:install` once, ~1.3 GB from the npm registry).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/agents/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One CLI at a time: each is heavy, and the machine is shared.
    fileParallelism: false,
    // `headroom run` runs the CLI bundle.
    globalSetup: ["tests/support/build-cli.ts"],
  },
});
