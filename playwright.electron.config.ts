// `npm run test:electron` (scripts/test-electron.mjs): the real desktop app driven through
// Playwright's `_electron`. Not part of `npm test`: it needs Electron's binary.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "tests/electron",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/electron",
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
});
