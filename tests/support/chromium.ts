// Which Chromium drives the window tests and the UI bench: Debian's package when present
// (what .ci/run installs), else Playwright's own when someone installed it; never a download.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const NO_CHROMIUM_MESSAGE =
  `No Chromium found for the window tests: neither ${DEBIAN_CHROMIUM} nor Playwright's own browser. ` +
  "Install Debian's package (sudo apt-get install chromium) or, on a machine that can download it, " +
  "Playwright's (npx playwright install chromium).";

export function chromiumExecutable(): string {
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const own = chromium.executablePath();
  if (own && existsSync(own)) return own;
  throw new Error(NO_CHROMIUM_MESSAGE);
}
