// Where the `headroom` command finds the host and its token (SPEC §6), and what to tell the
// user about both when something goes wrong.
import { createApiClient, type ApiClient } from "../shared/api-client";
import { DEFAULT_PORTS } from "../shared/limits";
import { tokenFilePath, readToken } from "../electron/data-folder/token-file";
import { resolveDataDir } from "../electron/data-folder/data-dir";
import { UsageError } from "./exit-codes";
import { nodeHttpFetch } from "./node-http-fetch";

const DEFAULT_URL = `http://127.0.0.1:${DEFAULT_PORTS.api}`;

export interface Connection {
  client: ApiClient;
  url: string;
  /** A sentence naming where the token came from (or where it was looked for), for 401s. */
  tokenSource: string;
}

function hostUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return text.replace(/\/+$/, "");
  } catch {
    // falls through to the message below
  }
  throw new UsageError(`HEADROOM_URL must be an http:// URL such as ${DEFAULT_URL} (got ${JSON.stringify(text)})`);
}

export function connect(env: NodeJS.ProcessEnv): Connection {
  const url = hostUrl(env.HEADROOM_URL?.trim() || DEFAULT_URL);
  const dataDir = resolveDataDir(undefined, env);
  const file = tokenFilePath(dataDir);
  const token = readToken(dataDir, env);
  const tokenSource = env.HEADROOM_TOKEN?.trim()
    ? "The token was taken from HEADROOM_TOKEN; set it to the host's token or unset it to use the token file."
    : token
      ? `The token was read from ${file}; set HEADROOM_TOKEN, or HEADROOM_DATA_DIR to the data folder of the host at ${url}.`
      : `No token found: HEADROOM_TOKEN is unset and ${file} does not exist; set HEADROOM_TOKEN, or HEADROOM_DATA_DIR to the host's data folder.`;
  // An empty token still reaches the host, which answers 401: one path for "no" and "wrong" token.
  return { client: createApiClient({ baseUrl: url, token: token ?? "", fetch: nodeHttpFetch }), url, tokenSource };
}
