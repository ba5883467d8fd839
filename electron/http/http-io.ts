import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorCode } from "../../shared/types";
import { ServiceError } from "../service/service-error";

const MAX_BODY_BYTES = 1024 * 1024;

const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden_host: 403,
  forbidden_origin: 403,
  unknown_provider: 404,
  unknown_lease: 404,
  not_found: 404,
  method_not_allowed: 405,
  too_many_providers: 409,
  queue_timeout: 408,
  payload_too_large: 413,
  unavailable: 503,
  unknown_agent: 404,
  config_conflict: 409,
  config_unparsable: 422,
  config_unwritable: 503,
};

function statusOf(code: ErrorCode): number {
  return STATUS_OF[code];
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: unknown): void {
  if (error instanceof ServiceError) {
    sendJson(res, statusOf(error.code), { error: { code: error.code, message: error.message } });
    return;
  }
  sendJson(res, 500, {
    error: { code: "internal", message: `Headroom hit an unexpected error: ${(error as Error)?.message ?? error}` },
  });
}

/**
 * Reads a JSON body of at most 1 MiB; an empty body reads as `{}`. How deep it nests is
 * checked once, by shared/check.ts before any schema walks it (JSON.parse itself is not
 * recursive), for the API and IPC alike.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(tooLarge());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(new ServiceError("invalid_input", `body must be valid JSON (${(error as Error).message})`));
      }
    });
    req.on("error", reject);
  });
}

function tooLarge(): ServiceError {
  return new ServiceError("payload_too_large", `body must be at most ${MAX_BODY_BYTES} bytes (1 MiB)`);
}
