import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: "forks",
    // Two files at once on CI's two cores (vitest's default is one fewer than the cores): most
    // integration files wait on real servers, timers and child processes, not on the CPU, so the
    // second worker roughly halves the wall time (issue 32 item 6; figures in the README's "Tests").
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
          // Transformed by vitest, so its top-level `import "electron"` can be stood in
          // (tests/unit/shell/electron-store-backend.test.ts): no Electron binary here.
          server: { deps: { inline: ["electron-store"] } },
          globalSetup: ["tests/support/build-cli.ts"],
        },
      },
      {
        // The window's components against a fake Bridge, in happy-dom (states e2e cannot reach cheaply).
        extends: true,
        plugins: [react()],
        test: { name: "renderer", include: ["tests/renderer/**/*.test.{ts,tsx}"], environment: "happy-dom" },
      },
    ],
  },
});
