// `npm run test:agents`: the real Claude Code and Codex CLIs through the proxy (not part of
// `npm test`; they need `npm run agents:install` once, ~800 MB from the npm registry).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/agents/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
