// The loopback API's bearer token (SPEC §3): HEADROOM_TOKEN when set, else one generated
// once per data folder and kept in <dataDir>/api-token, readable by its owner only.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { tokenFilePath, tokenFromEnv, tokenFromFile } from "../data-folder/token-file";
import { createExclusive, isLooserThanOwnerOnly, replaceAtomically } from "../data-folder/exclusive-file";

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
