// The loopback API's bearer token (SPEC §3): HEADROOM_TOKEN when set, else one generated
// once per data folder and kept in <dataDir>/api-token, readable by its owner only.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createExclusive, isLooserThanOwnerOnly, replaceAtomically } from "./exclusive-file";

export const TOKEN_FILE_NAME = "api-token";

export function tokenFilePath(dir: string): string {
  return path.join(dir, TOKEN_FILE_NAME);
}

// Trimmed on both sides of the wire (host and clients use these functions), so a stray
// newline from `echo > api-token` or a shell export cannot make the two disagree.
function tokenFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.HEADROOM_TOKEN?.trim() || undefined;
}

/** The token in the file; undefined when the file is missing or blank. */
function tokenFromFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** For the host: the token to require, creating the file on first start. */
export function loadOrCreateToken(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = tokenFromEnv(env);
  if (fromEnv) return fromEnv;

  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = tokenFilePath(dir);
  const fresh = randomBytes(32).toString("base64url");
  // Exclusive create: when two starts race, exactly one token is written and both use it.
  if (createExclusive(file, `${fresh}\n`, 0o600)) return fresh;

  const existing = tokenFromFile(file);
  if (existing === undefined) {
    // Emptied by hand: a blank token would lock every client out, so start a new one.
    replaceAtomically(file, `${fresh}\n`, 0o600);
    return fresh;
  }
  // A copy or an editor may have widened it; anyone who can read it can drive the API.
  if (isLooserThanOwnerOnly(file)) fs.chmodSync(file, 0o600);
  return existing;
}

/** For clients (the `headroom` command): the token to send, or undefined when there is none. */
export function readToken(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return tokenFromEnv(env) ?? tokenFromFile(tokenFilePath(dir));
}
