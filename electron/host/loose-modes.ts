// SPEC §5: a data folder or token file that other users can write is reported at start-up, in
// the log and the status, with the `chmod` that fixes it (someone else could swap the token or
// plant files beside the settings). Headroom does not change the folder's mode itself.
import fs from "node:fs";
import { tokenFilePath } from "../data-folder/token-file";

const OTHERS_WRITE = 0o022;

/** One sentence per file other users can write; none on Windows, where modes mean nothing. */
export function looseModeNotices(dataDir: string): string[] {
  if (process.platform === "win32") return [];
  const checked: [what: string, file: string, fix: string][] = [
    ["data folder", dataDir, "700"],
    ["token file", tokenFilePath(dataDir), "600"],
  ];
  const notices: string[] = [];
  for (const [what, file, fix] of checked) {
    let mode: number;
    try {
      mode = fs.statSync(file).mode;
    } catch {
      continue; // not there yet: Headroom creates it owner-only
    }
    if ((mode & OTHERS_WRITE) === 0) continue;
    const shown = (mode & 0o777).toString(8).padStart(3, "0");
    notices.push(`The ${what} ${file} can be written by other users (mode ${shown}); run: chmod ${fix} '${file}'`);
  }
  return notices;
}
