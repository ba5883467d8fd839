// `npm run test:electron`: the Playwright `_electron` smoke test of the real desktop app
// (tests/electron/). It needs Electron's binary, which installs never download; where it is
// missing (as on the machine Headroom is developed on, which cannot download it) this says
// plainly that the test was NOT run and why, and exits 0 in that one case only. CI runs it for
// real on a machine that can download Electron (.github/workflows/electron.yml).
// On Linux without a display it runs under xvfb-run. Flags: --no-build skips `npm run build`.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { electronPackageDir, installedBinary } from "./electron-binary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.error) return { status: 1, error: result.error };
  return { status: result.status ?? 1 };
}

const dir = electronPackageDir();
const binary = dir && installedBinary(dir);
if (!binary) {
  const why = dir
    ? "Electron's binary is not installed (npm installs skip its download: \"allowScripts\" in package.json)"
    : "the electron package is not installed";
  process.stdout.write(
    [
      "test:electron: NOT RUN — the Electron smoke test (tests/electron/app-smoke.spec.ts) did not run:",
      `  ${why}.`,
      "  Nothing about the desktop app was verified by this command. To run it, fetch the binary",
      "  (node node_modules/electron/install.js, or set ELECTRON_OVERRIDE_DIST_PATH) and run it again;",
      "  CI does that in .github/workflows/electron.yml.",
      "",
    ].join("\n"),
  );
  process.exit(0);
}

if (!process.argv.includes("--no-build")) {
  const npmCli = process.env.npm_execpath;
  const built = npmCli ? run(process.execPath, [npmCli, "run", "build"]) : run("npm", ["run", "build"]);
  if (built.status !== 0) {
    process.stderr.write("test:electron: the build failed (see above).\n");
    process.exit(built.status);
  }
}

const playwright = [join(root, "node_modules", "@playwright", "test", "cli.js"), "test", "-c", "playwright.electron.config.ts"];
const env = { ...process.env, HEADROOM_ELECTRON_BINARY: binary };
delete env.ELECTRON_RUN_AS_NODE;
const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const result = headless
  ? run("xvfb-run", ["-a", process.execPath, ...playwright], env)
  : run(process.execPath, playwright, env);
if (result.error) {
  process.stderr.write(
    `test:electron: could not start ${headless ? "xvfb-run (install the xvfb package: there is no display)" : "Playwright"}: ${result.error.message}\n`,
  );
}
process.exit(result.status);
