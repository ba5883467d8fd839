// DNS-rebinding defence shared by the API and the proxy: only loopback names may address us.
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  if (LOOPBACK_NAMES.has(name)) return true;
  if (name.endsWith(".localhost")) return true;
  return /^127(\.\d{1,3}){3}$/.test(name);
}
