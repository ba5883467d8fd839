// Reading and writing an agent's configuration file the way SPEC §10 asks: a symlink is
// written at its target (the link stays), the file keeps its mode (new files 0600), the write
// is atomic (a temporary file beside it, then rename), and a read-only file is refused rather
// than replaced behind the user's back (rename would succeed even on a 0444 file).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConnectError } from "./connect-error";

/** The real file behind a path: a symlink's target (followed all the way), else the path itself. */
export function realTarget(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    // A missing file, or a dangling link: write where the link points, or the path itself.
    try {
      const link = fs.readlinkSync(file);
      return path.resolve(path.dirname(file), link);
    } catch {
      return file;
    }
  }
}

/** The file's text, or undefined when it does not exist. */
export function readConfig(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new ConnectError("config_unwritable", `Cannot read ${file} (${code ?? (error as Error).message}); check its permissions and retry.`);
  }
}

function unwritable(file: string, why: string): ConnectError {
  return new ConnectError("config_unwritable", `Cannot write ${file} (${why}); nothing was changed. Make it writable (chmod u+w) or edit it by hand as docs/connect.md shows.`);
}

/** Writes `text` to `file` (or its symlink's target) atomically, keeping the mode. */
export function writeConfig(file: string, text: string): void {
  const target = realTarget(file);
  let mode = 0o600;
  try {
    const stat = fs.statSync(target);
    mode = stat.mode & 0o7777;
    if ((mode & 0o200) === 0) throw unwritable(target, "it is read-only");
  } catch (error) {
    if (error instanceof ConnectError) throw error;
  }
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.headroom-${randomBytes(4).toString("hex")}.tmp`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = fs.openSync(temp, "wx", mode);
    try {
      fs.fchmodSync(fd, mode); // the umask must not narrow the file's mode
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw unwritable(target, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

export function removeConfig(file: string): void {
  const target = realTarget(file);
  try {
    fs.rmSync(target, { force: true });
  } catch (error) {
    throw unwritable(target, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

/** CRLF when the file already uses it, so added lines match the rest. */
export function eolOf(text: string | undefined): string {
  return text !== undefined && text.includes("\r\n") ? "\r\n" : "\n";
}

/** 1-based line of a character offset, for "does not parse at line N". */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
