// DNS-rebinding defence shared by the API and the proxy: only loopback names may address us,
// and only the window served from that very address may drive the API from a browser.

// A name or a bracketed IPv6 literal, an optional port, and nothing after it.
const HOST_HEADER = /^(\[[0-9a-f:.]*\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const name = HOST_HEADER.exec(hostHeader.trim().toLowerCase())?.[1];
  if (name === undefined) return false;
  if (name === "[::1]" || name === "localhost" || name.endsWith(".localhost")) return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/** No Origin (not a browser, or a same-origin GET), or exactly the address the page was served from. */
export function isOwnOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  return origin === undefined || origin === `http://${hostHeader ?? ""}`;
}
