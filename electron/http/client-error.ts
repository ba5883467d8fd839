import type { Socket } from "node:net";

/**
 * What Node's HTTP parser could not read (a broken request line, bytes that are not HTTP, a
 * header block too large) still gets the API's JSON error body, never a bare 400 or a 500.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request's headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT" || error.code === "HPE_TIMEOUT"
        ? [408, "Request Timeout", "The request's headers did not arrive in time."]
        : [400, "Bad Request", `The request is not valid HTTP (${error.code ?? error.message}).`];
  const body = JSON.stringify({ error: { code: "invalid_input", message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
