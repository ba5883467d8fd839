// Bundles the Electron shell into dist/electron:
//   main.js      ESM for Electron's main process (Electron ≥ 28 loads an ESM entry). Our own
//                code is bundled; packages stay external and are loaded from node_modules,
//                which electron-builder packs from package.json's dependencies (conf,
//                electron-store) — so settings code runs exactly as `serve` runs it.
//   preload.cjs  ONE CommonJS file with nothing external but `electron`: a sandboxed preload
//                can neither load ESM nor require anything from node_modules.
//   icon.png     the tray and window icon (build/icon.png; electron-builder takes that one too).
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "electron");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  logLevel: "warning",
  legalComments: "none",
};

// Electron 41 runs Node 24 in the main process and Chromium 146 in the window.

await Promise.all([
  build({
    ...common,
    entryPoints: ["electron/main.ts"],
    outfile: join(out, "main.js"),
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
  }),
  build({
    ...common,
    entryPoints: ["electron/preload.ts"],
    outfile: join(out, "preload.cjs"),
    platform: "browser",
    format: "cjs",
    target: "chrome140",
    external: ["electron"],
  }),
]);
copyFileSync(join(root, "build", "icon.png"), join(out, "icon.png"));
console.log("Built dist/electron/main.js, dist/electron/preload.cjs and dist/electron/icon.png");
