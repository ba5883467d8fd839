// Where the loopback API's bearer token is kept and how a client reads it (SPEC §3): the
// host and the `headroom` command both use this, so it lives beside neither.
import fs from "node:fs";
import path from "node:path";

const TOKEN_FILE_NAME = "api-token";

export function tokenFilePath(dir: string): string {
  return path.join(dir, TOKEN_FILE_NAME);
}

// Trimmed on both sides of the wire (host and clients use these functions), so a stray
// newline from `echo > api-token` or a shell export cannot make the two disagree.
export function tokenFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.HEADROOM_TOKEN?.trim() || undefined;
}

/** The token in the file; undefined when the file is missing or blank. */
export function tokenFromFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** For clients (the `headroom` command): the token to send, or undefined when there is none. */
export function readToken(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return tokenFromEnv(env) ?? tokenFromFile(tokenFilePath(dir));
}
