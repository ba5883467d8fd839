// An upstream that points at this host's own API or proxy port would send every proxied
// request back into the proxy, each hop holding a connection, until file descriptors run out
// (SPEC §3, §6 "Loops"). Refused when it is set, where the person can still fix it.
import type { HostInfo } from "../../shared/contract";
import { ServiceError } from "./service-error";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "[::]"]);

function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** Throws invalid_input when `upstream` is this host's own API or proxy address under any loopback name. */
export function checkNotSelf(upstream: string, host: HostInfo | undefined): void {
  const ownPorts = [host?.apiUrl, host?.proxyUrl].flatMap((own) => (own ? [portOf(new URL(own))] : []));
  const url = new URL(upstream);
  const port = portOf(url);
  if (!LOCAL_HOSTS.has(url.hostname.toLowerCase()) || !ownPorts.includes(port)) return;
  throw new ServiceError(
    "invalid_input",
    `upstream must not point at Headroom itself (got ${upstream}: port ${port} on this machine is Headroom's own). ` +
      "Set the provider's real base URL, e.g. https://api.anthropic.com.",
  );
}
