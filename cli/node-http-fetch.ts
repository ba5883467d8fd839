// A `fetch` for the typed client built on node:http. Node's global fetch (undici) gives up
// waiting for response headers after 300 s, and a queued `acquire` is a long poll that may
// legitimately wait for hours; node:http has no such timer. Only what the client sends is
// supported: a string or URL, method, string headers, a string body and an abort signal.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

function abortError(): Error {
  const error = new Error("The request was aborted.");
  error.name = "AbortError";
  return error;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

export const nodeHttpFetch: typeof fetch = (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError());
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== "string") {
    return Promise.reject(new TypeError("nodeHttpFetch sends string bodies only"));
  }
  return new Promise<Response>((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    // agent: false — no keep-alive pool whose idle timers would hold the process open.
    const req = send(url, {
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      agent: false,
    });
    const onAbort = () => req.destroy(abortError());
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? abortError() : error);
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        signal?.removeEventListener("abort", onAbort);
        const status = res.statusCode ?? 0;
        // Response refuses a body on null-body statuses (204, 304).
        const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(payload, { status, statusText: res.statusMessage ?? "", headers: toHeaders(res.headers) }));
      });
    });
    req.end(body);
  });
};
