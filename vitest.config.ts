import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
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
