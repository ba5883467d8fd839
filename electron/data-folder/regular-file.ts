// Reading a data-folder file that anyone with write access to the folder could have replaced:
// only a regular file is read, never followed through a symlink (one to /dev/zero grew a host
// to 5.9 GB), never opened blocking (a FIFO in its place hung start-up), and never past a size
// bound. What is not such a file is moved aside so the next start does not meet it again.
import fs from "node:fs";

export type RegularRead = { kind: "missing" } | { kind: "text"; text: string } | { kind: "bad"; problem: string };

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;

function notRegular(stats: fs.Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isSymbolicLink()) return "it is a symbolic link";
  if (stats.isDirectory()) return "it is a folder";
  if (stats.isFIFO()) return "it is a named pipe";
  return "it is not a regular file";
}

const tooBig = (size: number, maxBytes: number) => (size > maxBytes ? `it holds ${size} bytes, more than the ${maxBytes} allowed` : undefined);

/** The file's text when it is a regular file of at most `maxBytes`; never blocks on a FIFO. */
export function readRegularFile(file: string, maxBytes: number): RegularRead {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    throw error;
  }
  const before = notRegular(stats) ?? tooBig(stats.size, maxBytes);
  if (before !== undefined) return { kind: "bad", problem: before };
  // Swapped between lstat and open: O_NOFOLLOW refuses a link, O_NONBLOCK opens a FIFO at once,
  // and fstat checks what was opened.
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "ELOOP") return { kind: "bad", problem: "it is a symbolic link" };
    throw error;
  }
  try {
    const opened = fs.fstatSync(fd);
    const problem = notRegular(opened) ?? tooBig(opened.size, maxBytes);
    if (problem !== undefined) return { kind: "bad", problem };
    // One byte more than allowed: a file growing while read is caught too.
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return { kind: "bad", problem: tooBig(length, maxBytes)! };
    return { kind: "text", text: buffer.toString("utf8", 0, length) };
  } finally {
    fs.closeSync(fd);
  }
}

// 2026-11-29T09:10:11.123Z -> 2026-11-29T09-10-11-123Z (":" is not allowed on Windows).
const fileStamp = () => new Date().toISOString().replace(/[:.]/g, "-");

/**
 * Renames `file` (whatever it is: a file, a folder, a link, a pipe) to `<file>.<label>-<time>`
 * beside it and returns the new path. A regular file's copy is made owner-only; nothing else
 * is chmod-ed, since chmod follows a link to whatever it names.
 */
export function moveAside(file: string, label: string): string {
  const base = `${file}.${label}-${fileStamp()}`;
  let target = base;
  // rename() silently replaces an existing file: never lose an earlier moved-aside copy.
  for (let n = 2; fs.existsSync(target) || isLink(target); n++) target = `${base}-${n}`;
  fs.renameSync(file, target);
  if (fs.lstatSync(target).isFile()) fs.chmodSync(target, 0o600);
  return target;
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
