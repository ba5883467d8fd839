// Bundles the `headroom` command into dist/cli/headroom.js (and its commands' chunks beside it),
// which bin/headroom.js runs: plain JavaScript starts in a fraction of the time TypeScript through tsx took
// (docs/bench.md, `cli` bench), and needs nothing from node_modules at run time.
// Runs on install (`prepare`), so a fresh clone's `headroom` works; after editing cli/ or
// shared/, run `npm run build:cli` (the tests build it themselves, tests/support/build-cli.ts).
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export const CLI_BUNDLE = join(root, "dist", "cli", "headroom.js");

const OUT_DIR = join(root, "dist", "cli");
const CHUNKS = "chunks";

export async function buildCli() {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { headroom: "cli/main.ts" },
    outdir: OUT_DIR,
    // Each command is its own chunk, loaded when it runs: `headroom statusline`, which Claude
    // Code runs on every render, parses a few KiB instead of the whole CLI and TypeBox.
    splitting: true,
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    bundle: true,
    platform: "node",
    format: "esm",
    // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot bundle into
    // ESM; its `module` build is plain ESM.
    mainFields: ["module", "main"],
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
    metafile: true,
  });
  // Chunks are named by content hash: the previous builds' would only pile up.
  const current = new Set(Object.keys(metafile.outputs).map((file) => join(root, file)));
  const chunkDir = join(OUT_DIR, CHUNKS);
  for (const file of readdirSync(chunkDir)) if (!current.has(join(chunkDir, file))) rmSync(join(chunkDir, file), { force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli();
  console.log("Built dist/cli/headroom.js");
}
