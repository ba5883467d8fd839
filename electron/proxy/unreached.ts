// Why a request never reached its upstream, in the few words the status shows (SPEC §4
// `upstreamFailures`). forward.ts asks as a request fails; upstream-notes.ts hands it to the service.
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"]);
// OpenSSL's verify codes and Node's TLS errors: the host answered, but not as the URL's https promised.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)|SELF_SIGNED|^EPROTO$/;

/**
 * Why the upstream could not be reached, when the error says it never was (DNS, TCP connect,
 * TLS handshake); undefined for anything later (a reset, a timeout), which the route breaker
 * counts instead: the upstream was there.
 */
export function unreachedBy(error: Error, target: URL): string | undefined {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === undefined) return undefined;
  const port = target.port !== "" ? target.port : target.protocol === "https:" || target.protocol === "wss:" ? "443" : "80";
  const where = `${target.hostname}:${port}`;
  if (code === "ECONNREFUSED") return `connection refused (${where})`;
  if (syscall === "getaddrinfo" || DNS_CODES.has(code)) return `host not found (${target.hostname})`;
  if (syscall === "connect") return `could not connect: ${code} (${where})`;
  if (TLS_CODE.test(code)) return `TLS failed: ${code} (${where})`;
  return undefined;
}
