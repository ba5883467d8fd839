// The HTTP bench's baseline: a bare node:http server answering the same two requests as
// Headroom (acquire, release) with JSON of the same shape and headers, and no rules at all.
// Run as its own process by http.bench.ts; prints its URL when listening.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const RELEASE_PATH = /^\/concurrency\/leases\/[^/]+\/release$/;

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text ? JSON.parse(text) : {});
    });
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

const server = createServer((req, res) => {
  readBody(req).then(
    (body) => {
      if (req.method === "POST" && req.url === "/concurrency/acquire") {
        const now = Date.now();
        const providerId = (body as { providerId?: string }).providerId ?? "bench";
        send(res, 200, { leaseId: randomUUID(), providerId, admittedAt: now, expiresAt: now + 120_000 });
      } else if (req.method === "POST" && RELEASE_PATH.test(req.url ?? "")) {
        send(res, 200, { released: true });
      } else {
        send(res, 404, { error: { code: "not_found", message: `${req.method} ${req.url}` } });
      }
    },
    () => send(res, 400, { error: { code: "invalid_input", message: "body must be valid JSON" } }),
  );
});
server.keepAliveTimeout = 5_000; // as Headroom's API server

process.once("SIGTERM", () => server.close(() => process.exit(0)));
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
