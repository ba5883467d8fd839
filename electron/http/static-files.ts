import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, normalize, sep } from "node:path";
import { contentTypeOf } from "../host/content-types";

/** Serves the built window; unknown paths fall back to index.html. false when nothing fits. */
export async function serveStatic(root: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const wanted = normalize(join(root, decodeURIComponent(pathname)));
  if (wanted !== root && !wanted.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  for (const file of [wanted, join(root, "index.html")]) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    res.writeHead(200, {
      "content-type": contentTypeOf(file),
      "content-length": info.size,
      "cache-control": file.endsWith("index.html") ? "no-store" : "public, max-age=3600",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
    return true;
  }
  return false;
}
