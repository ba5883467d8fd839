// Gated requests are read whole before forwarding: the route key needs the body's `model`,
// and nothing may reach the provider before a slot is held.
import type { IncomingMessage } from "node:http";
import type { ProxyError } from "./proxy-errors";

export const MAX_PROXY_BODY_BYTES = 32 * 1024 * 1024;

export function tooLargeError(): ProxyError {
  return {
    status: 413,
    code: "payload_too_large",
    message: `the request body is larger than ${MAX_PROXY_BODY_BYTES / 1024 / 1024} MiB, the most the proxy accepts.`,
  };
}

/** A declared length past the cap is refused before a byte of the body is read. */
export function declaresTooLarge(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? 0) > MAX_PROXY_BODY_BYTES;
}

export class ClientGone extends Error {}

/**
 * The body, or "too_large" once it passes `max`. An oversized body is drained rather than
 * cut off, so the client reads a clean 413 instead of a reset while it is still writing.
 */
export function readBoundedBody(req: IncomingMessage, max = MAX_PROXY_BODY_BYTES): Promise<Buffer | "too_large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"] ?? 0) > max;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? "too_large" : Buffer.concat(chunks, size)));
    req.on("close", () => {
      if (!req.complete) reject(new ClientGone("the client left while sending its request"));
    });
    req.on("error", () => reject(new ClientGone("the client connection failed")));
  });
}

const MAX_MODEL_LENGTH = 200;

/** The route's model: the body's `model` when it is a sensible string, else "unknown". */
export function modelOf(body: Buffer): string {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (parsed !== null && typeof parsed === "object" && "model" in parsed) {
      const model = (parsed as { model: unknown }).model;
      if (typeof model === "string" && model.length > 0 && model.length <= MAX_MODEL_LENGTH) return model;
    }
  } catch {
    // Not JSON: the provider will answer 400 itself, which the proxy counts as neutral.
  }
  return "unknown";
}
