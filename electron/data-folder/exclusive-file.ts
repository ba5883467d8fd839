// Small files that several processes race for (the API token, the host lock). A reader must
// never see such a file half-written, or it would take an empty token or a blank lock as
// "none" and create a second one.
import { randomBytes } from "node:crypto";
import fs from "node:fs";

const tempBeside = (target: string) => `${target}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;

// Filesystems without hard links (FAT, some network mounts) answer link() with one of these.
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Creates `target` with `content` only if it does not exist; false when it already does.
 * The content is written to a temp file first and hard-linked into place, so the file
 * appears complete or not at all.
 */
export function createExclusive(target: string, content: string, mode = 0o600): boolean {
  const temp = tempBeside(target);
  fs.writeFileSync(temp, content, { flag: "wx", mode });
  try {
    fs.linkSync(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
    // Fallback: still exclusive, with a window in which the file exists but is empty.
    try {
      fs.writeFileSync(target, content, { flag: "wx", mode });
      return true;
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw fallbackError;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Replaces `target` whole (write beside, then rename), so readers see old or new content. */
export function replaceAtomically(target: string, content: string, mode = 0o600): void {
  const temp = tempBeside(target);
  try {
    fs.writeFileSync(temp, content, { flag: "wx", mode });
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** True when the file's permissions let anyone but its owner in (meaningless on Windows). */
export function isLooserThanOwnerOnly(file: string): boolean {
  return process.platform !== "win32" && (fs.statSync(file).mode & 0o077) !== 0;
}
