// Where Electron's binary is, if it is really there: installs never download it
// (package.json "allowScripts": {"electron": false}), so `npm start` and
// `npm run test:electron` must check before they use it.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** node_modules/electron, or undefined when the package is not installed. */
export function electronPackageDir() {
  try {
    return dirname(require.resolve("electron/package.json"));
  } catch {
    return undefined;
  }
}

/** The binary electron's index.js would return, if it exists on disk; else undefined. */
export function installedBinary(dir) {
  const pathFile = join(dir, "path.txt");
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8") : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  // Same rule as electron's index.js: an override folder works without path.txt.
  const binary = override ? join(override, relative || "electron") : relative && join(dir, "dist", relative);
  return binary && existsSync(binary) ? binary : undefined;
}
