// Where settings, token and lock live. The default is exactly Electron's userData folder for
// an app named "Headroom", so the app, `npm run serve` and the `headroom` command share one
// folder without being told (SPEC §5). The Electron shell should still pin it with
// app.setPath("userData", resolveDataDir(...)) before `ready`: Electron derives its folder
// from package.json's productName/name, and ours is the lowercase "headroom".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const APP_FOLDER_NAME = "Headroom";

/** Electron's `app.getPath("userData")` for APP_FOLDER_NAME, for any platform (testable on one). */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === "win32") {
    // Electron asks Windows for the roaming AppData folder, which is what %APPDATA% holds.
    const appData = env.APPDATA || path.win32.join(home, "AppData", "Roaming");
    return path.win32.join(appData, APP_FOLDER_NAME);
  }
  if (platform === "darwin") {
    return path.posix.join(home, "Library", "Application Support", APP_FOLDER_NAME);
  }
  // Linux and the other Unixes: Chromium takes XDG_CONFIG_HOME as given when it is non-empty.
  const configHome = env.XDG_CONFIG_HOME || path.posix.join(home, ".config");
  return path.posix.join(configHome, APP_FOLDER_NAME);
}

/** --data-dir, else HEADROOM_DATA_DIR, else the default; relative paths are made absolute. */
export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag || env.HEADROOM_DATA_DIR;
  // Absolute, so messages (lock refusals, moved-aside files) name a folder the user can find.
  return chosen ? path.resolve(chosen) : defaultDataDir(process.platform, env);
}

// What the person can do about each way a data folder can be unusable.
const REMEDIES: Record<string, string> = {
  EEXIST: "a file is in the way: move it, or",
  ENOTDIR: "a file is in the way: move it, or",
  EACCES: "give your user write access to it, or",
  EPERM: "give your user write access to it, or",
  EROFS: "it is on a read-only disk:",
  ENOSPC: "free some space on its disk, or",
};

/**
 * Creates the data folder if needed and proves it writable, before anything else touches it;
 * a problem comes back as one sentence naming the folder, the OS error and what to do
 * (SPEC §5), so start-up can stop with it instead of a stack trace from deep inside.
 */
export function checkDataDir(dir: string): string | undefined {
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(probe, "", { flag: "wx" });
    fs.rmSync(probe);
    return undefined;
  } catch (error) {
    const { code = "", message } = error as NodeJS.ErrnoException;
    const remedy = REMEDIES[code] ?? "fix that, or";
    return `Headroom cannot use the data folder ${dir} (${message}); ${remedy} choose another folder with --data-dir or HEADROOM_DATA_DIR.`;
  }
}
