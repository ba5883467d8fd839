#!/usr/bin/env node
// The `headroom` command: runs the bundle scripts/build-cli.mjs makes from cli/ (built on
// install by `prepare`; `npm run build:cli` after editing the sources).
import { existsSync } from "node:fs";

const bundle = new URL("../dist/cli/headroom.js", import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    "headroom: the command is not built (dist/cli/headroom.js is missing); run `npm run build:cli` in the Headroom checkout.\n",
  );
  process.exit(70);
}
await import(bundle.href);
