// Bundles the `headroom` command into dist/cli/headroom.js, which bin/headroom.js runs: one
// file of plain JavaScript starts in a fraction of the time TypeScript through tsx took
// (docs/bench.md, `cli` bench), and needs nothing from node_modules at run time.
// Runs on install (`prepare`), so a fresh clone's `headroom` works; after editing cli/ or
// shared/, run `npm run build:cli` (the tests build it themselves, tests/support/build-cli.ts).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export const CLI_BUNDLE = join(root, "dist", "cli", "headroom.js");

export async function buildCli() {
  await build({
    absWorkingDir: root,
    entryPoints: ["cli/main.ts"],
    // Split: the commands main.ts imports lazily (connect, env, doctor with jsonc-parser and
    // smol-toml) become chunks beside it, so every other command starts without parsing them.
    outdir: dirname(CLI_BUNDLE),
    entryNames: "headroom",
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    bundle: true,
    platform: "node",
    format: "esm",
    // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot bundle into
    // ESM; its `module` build is plain ESM.
    mainFields: ["module", "main"],
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli();
  console.log("Built dist/cli/headroom.js");
}
