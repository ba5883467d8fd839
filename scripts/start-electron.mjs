// `npm start`: builds the app, makes sure Electron's binary is present, then runs Headroom.
// Installs never download that binary (package.json "allowScripts": {"electron": false}), so
// the first start fetches it with Electron's own installer; a normal machine needs nothing
// more. Flags: `--no-build` skips the build; anything else is passed on to the app.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { electronPackageDir, installedBinary } from "./electron-binary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
/** Electron is about 100 MB; a slow link gets ten minutes, a dead one fails long before. */
const INSTALL_DEADLINE_MS = Number(process.env.HEADROOM_ELECTRON_INSTALL_TIMEOUT_MS) || 10 * 60_000;

function fail(lines) {
  process.stderr.write(`\n${lines.join("\n")}\n`);
  process.exit(1);
}

function build() {
  // npm_execpath is the npm (or pnpm/yarn) that ran `npm start`; elsewhere fall back to `npm`.
  const npmCli = process.env.npm_execpath;
  const result = npmCli
    ? spawnSync(process.execPath, [npmCli, "run", "build"], { cwd: root, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) fail(["npm start: the build failed (see above); fix it and run `npm start` again."]);
}

function packageDirOrFail() {
  return electronPackageDir() ?? fail(["npm start: the electron package is not installed. Run `npm install` first."]);
}

/** Runs node_modules/electron/install.js, bounded; resolves with why it failed, or undefined. */
function runElectronInstaller(dir, version) {
  process.stderr.write(
    `npm start: Electron ${version}'s binary is not installed (npm installs skip its download, see ` +
      `"allowScripts" in package.json).\nFetching it once with Electron's own installer ` +
      `(node node_modules/electron/install.js)…\n`,
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dir, "install.js")], {
      cwd: dir,
      stdio: ["ignore", "inherit", "pipe"],
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: "" },
    });
    let errors = "";
    child.stderr.on("data", (chunk) => {
      errors = (errors + chunk).slice(-8192);
    });
    const timer = setTimeout(() => {
      child.kill();
      resolve(`it did not finish within ${Math.ceil(INSTALL_DEADLINE_MS / 1000)} s`);
    }, INSTALL_DEADLINE_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(undefined);
      resolve(reasonFrom(errors) ?? `the installer exited with ${code ?? signal}`);
    });
  });
}

/** The installer prints a stack; its first line says what went wrong (ENOTFOUND, 404, ...). */
function reasonFrom(stderr) {
  const line = stderr
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /error|enotfound|econn|etimedout|eai_again|socket|certificate|\b[45]\d\d\b/i.test(l) && !l.startsWith("at "));
  return line || undefined;
}

function cannotInstall(version, reason) {
  fail([
    `npm start: could not download Electron ${version}: ${reason}.`,
    "",
    "Headroom's desktop window needs that binary. To fix it, either:",
    "  - check the network or proxy (HTTPS_PROXY) reaches github.com, then run `npm start` again;",
    "  - set ELECTRON_MIRROR to a mirror you can reach (e.g. https://npmmirror.com/mirrors/electron/);",
    "  - or unpack an Electron build yourself and set ELECTRON_OVERRIDE_DIST_PATH to its folder.",
    "Without Electron, `npm run serve` runs the same host and serves the same window to a browser.",
  ]);
}

function launch(binary, appArgs) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // set by some editors' terminals; it would make Electron a plain Node
  const child = spawn(binary, [root, ...appArgs], { stdio: "inherit", env, windowsHide: false });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (!child.killed) child.kill(signal);
    });
  }
  child.on("error", (error) => fail([`npm start: could not run ${binary}: ${error.message}`]));
  child.on("close", (code, signal) => {
    if (code === null) {
      process.stderr.write(`Headroom exited on ${signal}.\n`);
      process.exit(1);
    }
    process.exit(code);
  });
}

const args = process.argv.slice(2);
if (!args.includes("--no-build")) build();
const dir = packageDirOrFail();
const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
if (!installedBinary(dir)) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    fail([
      "npm start: Electron's binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set,",
      "so it will not be fetched. Unset it (or set ELECTRON_OVERRIDE_DIST_PATH) and run `npm start` again.",
    ]);
  }
  const reason = await runElectronInstaller(dir, version);
  if (reason !== undefined) cannotInstall(version, reason);
  if (!installedBinary(dir)) cannotInstall(version, "the installer finished but left no binary");
}
// electron's index.js returns the same path; asked only now, so it never caches a missing binary.
launch(require("electron"), args.filter((arg) => arg !== "--no-build"));
