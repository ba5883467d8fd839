// The absolute command Claude Code's `statusLine` runs (SPEC §10): this checkout's
// bin/headroom.js under this Node, so it works with no PATH (Claude Code runs it through a shell
// whose PATH may not hold `headroom`, or even `node`). Found by walking up from this module,
// which sits at different depths in the sources (tsx), the CLI bundle and the Electron bundle.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A word as the shell reads it: bare when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The checkout's bin/headroom.js above `from`, or undefined (a packaged app has none). */
export function headroomScript(from: string = import.meta.url): string | undefined {
  let dir = path.dirname(from.startsWith("file:") ? fileURLToPath(from) : from);
  for (;;) {
    const script = path.join(dir, "bin", "headroom.js");
    if (fs.existsSync(script) && fs.existsSync(path.join(dir, "package.json"))) return script;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * `<node> <checkout>/bin/headroom.js`, both absolute. Inside Electron `process.execPath` is the
 * app, not Node, so the word is then plain `node`.
 */
export function headroomCommand(): string | undefined {
  const script = headroomScript();
  if (script === undefined) return undefined;
  const node = process.versions.electron ? "node" : process.execPath;
  return `${shellWord(node)} ${shellWord(script)}`;
}
