import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, normalize, sep } from "node:path";
import { contentTypeOf } from "./content-types";

const within = (folder: string, path: string) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/**
 * Serves the built window; unknown paths fall back to index.html. false when nothing fits. A
 * file is served only when its real path, links followed, is inside the folder's real path: a
 * link planted in the folder cannot hand out a file from elsewhere (SPEC §6, issue 17).
 */
export async function serveStatic(root: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  // A malformed escape was answered 400 before this (api-server.ts).
  const wanted = normalize(join(root, decodeURIComponent(pathname)));
  if (!within(root, wanted)) return false;
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return false;
  for (const file of [wanted, join(root, "index.html")]) {
    const real = await realpath(file).catch(() => undefined);
    if (real === undefined || !within(realRoot, real)) continue;
    const info = await stat(real).catch(() => undefined);
    if (!info?.isFile()) continue;
    res.writeHead(200, {
      "content-type": contentTypeOf(real),
      "content-length": info.size,
      "cache-control": real.endsWith("index.html") ? "no-store" : "public, max-age=3600",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(real).pipe(res);
    return true;
  }
  return false;
}
